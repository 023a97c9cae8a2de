import { expect } from "vitest";
import { it } from "./contract-test.js";
import type { Storage } from "../ports/storage.js";
import type { Fixtures, Seed, ContractContext } from "./contract-section.js";
import { webhookFixtures } from "./webhook-fixtures.js";

/**
 * Contract tests for the outbox's conditional writes: each applies only to the state it was decided
 * on, checked in the same atomic step as the write (never a read and then a write).
 */
export function webhookGuardContract({ storage: getStorage, f, seedWorkspace }: ContractContext): void {
  const w = webhookFixtures();
  const seed = async () => ({ storage: getStorage(), workspaceId: (await seedWorkspace()).workspace.id });

  it("disables after a 410 only while the subscription still has the URL that answered", async () => {
    const { storage, workspaceId } = await seed();
    const sub = w.subscription(workspaceId, { url: "https://old.example/hooks" });
    await storage.webhookSubscriptions.insert(sub);
    const subscriptions = storage.webhookSubscriptions;
    const goneAt = (url: string) => ({
      enabled: false,
      disabledReason: "receiver answered 410 Gone",
      onlyIfEnabled: true,
      onlyIfUrl: url,
      updatedAt: f.at(9),
    });
    // The user moved the subscription while an attempt to the old URL was in flight.
    const moved = await subscriptions.patch(workspaceId, sub.id, {
      url: "https://new.example/hooks",
      updatedAt: f.at(5),
    });
    expect(moved).toEqual({ ...sub, url: "https://new.example/hooks", updatedAt: f.at(5) });
    // The old receiver's 410 then changes nothing.
    expect(await subscriptions.patch(workspaceId, sub.id, goneAt(sub.url))).toBeNull();
    expect(await subscriptions.get(workspaceId, sub.id)).toEqual(moved);
    // A 410 from the URL it has disables it.
    expect(await subscriptions.patch(workspaceId, sub.id, goneAt("https://new.example/hooks"))).toEqual({
      ...moved,
      enabled: false,
      disabledReason: "receiver answered 410 Gone",
      updatedAt: f.at(9),
    });
  });

  it("applies a completion only under the lease it was made under, not a later lease of the same worker", async () => {
    const { storage, workspaceId } = await seed();
    const sub = w.subscription(workspaceId);
    await storage.webhookSubscriptions.insert(sub);
    // Due before every other test's rows, so these claims take exactly this one.
    const t = (ms: number) => f.at(-6e11 + ms);
    const delivery = w.delivery(workspaceId, sub.id, { nextAttemptAt: t(0) });
    await storage.webhookDeliveries.insert(delivery);
    const claim = async (now: string, leaseUntil: string) => {
      const claimed = await storage.webhookDeliveries.claimDueDeliveries(now, 1, leaseUntil, "w1");
      expect(claimed.map((c) => c.delivery.id)).toEqual([delivery.id]);
      return claimed[0]!.delivery;
    };
    const first = await claim(t(10), t(1000));
    // The first attempt's completion stalls past its lease; the same worker claims the delivery
    // again and starts a second attempt.
    const second = await claim(t(1000), t(2000));
    const completion = (lease: typeof first, statusCode: number) => ({
      deliveryId: delivery.id,
      workerId: "w1",
      leaseUntil: lease.leaseUntil!,
      outcome: {
        status: statusCode === 204 ? ("succeeded" as const) : ("pending" as const),
        attemptCount: 1,
        nextAttemptAt: t(60_000),
        lastError: statusCode === 204 ? null : `HTTP ${statusCode}`,
        deliveredAt: statusCode === 204 ? t(1500) : null,
      },
      attempt: {
        id: f.id(),
        deliveryId: delivery.id,
        number: 1,
        attemptedAt: t(20),
        statusCode,
        durationMs: 5,
        error: statusCode === 204 ? null : `HTTP ${statusCode}`,
        responseBodyPrefix: "",
      },
    });
    // The stale completion writes nothing, attempt included: the second attempt is in flight.
    const stale = completion(first, 500);
    expect(await storage.webhookDeliveries.completeClaims([stale])).toEqual([false]);
    expect(await storage.webhookDeliveries.get(workspaceId, delivery.id)).toEqual(second);
    expect(await storage.webhookAttempts.listByDeliveries([delivery.id])).toEqual([]);
    // The completion made under the current lease applies.
    const current = completion(second, 204);
    expect(await storage.webhookDeliveries.completeClaims([current])).toEqual([true]);
    expect(await storage.webhookDeliveries.get(workspaceId, delivery.id)).toEqual({
      ...delivery,
      ...current.outcome,
      leaseUntil: null,
      leasedBy: null,
    });
    expect(await storage.webhookAttempts.listByDeliveries([delivery.id])).toEqual([current.attempt]);
  });
}
