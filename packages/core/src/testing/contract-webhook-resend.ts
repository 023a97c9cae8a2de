import { expect } from "vitest";
import { it } from "./contract-test.js";
import type { Storage } from "../ports/storage.js";
import type { Fixtures, Seed, ContractContext } from "./contract-section.js";
import { webhookFixtures } from "./webhook-fixtures.js";

/**
 * Contract test for a resend's fresh retry cycle: `reschedule` records the attempt count it found as
 * `attemptsBeforeResend` (the backoff counts only the attempts after it), in the same atomic step
 * as the rest of the resend, and a claim hands the counter to the worker.
 */
export function webhookResendContract({ storage: getStorage, f, seedWorkspace }: ContractContext): void {
  const w = webhookFixtures();

  it("records the attempt count at a resend as attemptsBeforeResend, and a claim returns it", async () => {
    const storage = getStorage();
    const workspaceId = (await seedWorkspace()).workspace.id;
    const sub = w.subscription(workspaceId);
    await storage.webhookSubscriptions.insert(sub);
    // Due before every other test's rows (the guard contract's too), so these claims take exactly this one.
    const t = (ms: number) => f.at(-7e11 + ms);
    const delivery = w.delivery(workspaceId, sub.id, { nextAttemptAt: t(0), retryUntil: t(86_400_000) });
    await storage.webhookDeliveries.insert(delivery);
    const deliveries = storage.webhookDeliveries;
    const claim = async (now: number) => {
      const claimed = await deliveries.claimDueDeliveries(t(now), 1, t(now + 30_000), "w1");
      expect(claimed.map((c) => c.delivery.id)).toEqual([delivery.id]);
      return claimed[0]!.delivery;
    };
    /** One failed attempt under the claim made at `now`; the last one of a window fails it for good. */
    const fail = async (now: number, number: number, status: "pending" | "failed" = "pending") => {
      const leased = await claim(now);
      const outcome = {
        status,
        attemptCount: number,
        nextAttemptAt: t(now + 1),
        lastError: "HTTP 503",
        deliveredAt: null,
      };
      const attempt = {
        id: f.id(),
        deliveryId: delivery.id,
        number,
        attemptedAt: t(now),
        statusCode: 503,
        durationMs: 3,
        error: "HTTP 503",
        responseBodyPrefix: "",
      };
      const completion = { deliveryId: delivery.id, workerId: "w1", leaseUntil: leased.leaseUntil!, outcome, attempt };
      expect(await deliveries.completeClaims([completion])).toEqual([true]);
      return leased;
    };

    // Three failures, the last one ending the first window; completions never move the counter.
    expect(await fail(10, 1)).toMatchObject({ attemptCount: 0, attemptsBeforeResend: 0 });
    await fail(20, 2);
    await fail(30, 3, "failed");
    expect(await deliveries.get(workspaceId, delivery.id)).toMatchObject({ attemptCount: 3, attemptsBeforeResend: 0 });

    const resent = await deliveries.reschedule(workspaceId, delivery.id, t(1000), t(90_000_000));
    const expected = { status: "pending", attemptCount: 3, attemptsBeforeResend: 3, nextAttemptAt: t(1000) };
    expect(resent).toMatchObject(expected);
    expect(await deliveries.get(workspaceId, delivery.id)).toEqual(resent);

    // The worker's claim carries it (the backoff is computed from the claimed record); the failed
    // resent attempt is number 4 and keeps the counter at 3.
    expect(await fail(1000, 4)).toMatchObject({ ...expected, leasedBy: "w1" });
    expect(await deliveries.get(workspaceId, delivery.id)).toMatchObject({ attemptCount: 4, attemptsBeforeResend: 3 });
    // A resend refused because an attempt is in flight changes nothing; a later one starts again from 4.
    const inFlight = await claim(1001);
    expect(await deliveries.reschedule(workspaceId, delivery.id, t(1002), t(90_000_000))).toBeNull();
    expect(await deliveries.get(workspaceId, delivery.id)).toEqual(inFlight);
    expect(await deliveries.reschedule(workspaceId, delivery.id, t(40_000), t(90_000_000))).toMatchObject({
      attemptCount: 4,
      attemptsBeforeResend: 4,
    });
    const attempts = await storage.webhookAttempts.listByDeliveries([delivery.id]);
    expect(attempts.map((a) => a.number)).toEqual([1, 2, 3, 4]);
  });
}
