import { expect } from "vitest";
import { it } from "./contract-test.js";
import type { Storage } from "../ports/storage.js";
import type { Fixtures, Seed, ContractContext } from "./contract-section.js";
import { webhookFixtures } from "./webhook-fixtures.js";

/**
 * Contract tests (version 15) for a subscription's signing scheme and its rolling secret rotation:
 * the scheme is stored as inserted, and a rotation keeps the secret it replaced, read in the same
 * atomic step as the write.
 */
export function webhookSigningContract({ storage: getStorage, f, seedWorkspace }: ContractContext): void {
  const w = webhookFixtures();
  const seed = async () => ({ storage: getStorage(), workspaceId: (await seedWorkspace()).workspace.id });

  it("stores the signature scheme as inserted, and a claim returns it with the previous secret", async () => {
    const { storage, workspaceId } = await seed();
    const sub = w.subscription(workspaceId, {
      signatureScheme: "standard-webhooks",
      previousSealedSecret: "v1.old.sealed",
      previousSecretExpiresAt: f.at(50),
    });
    await storage.webhookSubscriptions.insert(sub);
    expect(await storage.webhookSubscriptions.get(workspaceId, sub.id)).toEqual(sub);
    expect(await storage.webhookSubscriptions.listEnabledForEvent(workspaceId, "order.confirmed")).toEqual([sub]);
    // Due before every other test's rows, so this claim takes exactly this one.
    const t = (ms: number) => f.at(-8e11 + ms);
    await storage.webhookDeliveries.insert(w.delivery(workspaceId, sub.id, { nextAttemptAt: t(0) }));
    const [claimed] = await storage.webhookDeliveries.claimDueDeliveries(t(10), 1, t(30_000), "w1");
    expect(claimed?.subscription).toEqual(sub);
  });

  it("rolls a secret: the replaced one becomes the previous until the given time; a plain change drops it", async () => {
    const { storage, workspaceId } = await seed();
    const sub = w.subscription(workspaceId, { sealedSecret: "v1.a" });
    await storage.webhookSubscriptions.insert(sub);
    const subscriptions = storage.webhookSubscriptions;
    const rolled = await subscriptions.patch(workspaceId, sub.id, {
      sealedSecret: "v1.b",
      previousSecretExpiresAt: f.at(100),
      updatedAt: f.at(5),
    });
    const expected = {
      ...sub,
      sealedSecret: "v1.b",
      previousSealedSecret: "v1.a",
      previousSecretExpiresAt: f.at(100),
      updatedAt: f.at(5),
    };
    expect(rolled).toEqual(expected);
    expect(await subscriptions.get(workspaceId, sub.id)).toEqual(expected);
    // A patch without a secret keeps the rotation as it is.
    const moved = await subscriptions.patch(workspaceId, sub.id, { url: "https://n.example/h", updatedAt: f.at(6) });
    expect(moved).toEqual({ ...expected, url: "https://n.example/h", updatedAt: f.at(6) });
    // A second rotation keeps the secret it replaced (b), never the older one (a).
    expect(
      await subscriptions.patch(workspaceId, sub.id, {
        sealedSecret: "v1.c",
        previousSecretExpiresAt: f.at(200),
        updatedAt: f.at(7),
      }),
    ).toMatchObject({ sealedSecret: "v1.c", previousSealedSecret: "v1.b", previousSecretExpiresAt: f.at(200) });
    // A change without a grace period switches at once: no previous secret is left.
    const switched = await subscriptions.patch(workspaceId, sub.id, { sealedSecret: "v1.d", updatedAt: f.at(8) });
    expect(switched).toMatchObject({ sealedSecret: "v1.d", previousSealedSecret: null, previousSecretExpiresAt: null });
    expect(await subscriptions.get(workspaceId, sub.id)).toEqual(switched);
  });
}
