import { expect, it } from "vitest";
import type { Storage } from "../ports/storage.js";
import type { Fixtures, Seed } from "./contract-section.js";
import { webhookFixtures } from "./webhook-fixtures.js";

/**
 * Contract tests for the outbox's conditional writes: each applies only to the state it was decided
 * on, checked in the same atomic step as the write (never a read and then a write).
 */
export function webhookGuardContract(getStorage: () => Storage, f: Fixtures, seedWorkspace: Seed): void {
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
}
