import { describe, expect } from "vitest";
import { it } from "./contract-test.js";
import type { ClaimCompletion, Storage } from "../ports/storage.js";
import type { WebhookDeliveryRecord } from "../ports/webhook-records.js";
import type { ContractContext } from "./contract-section.js";
import { webhookFixtures } from "./webhook-fixtures.js";

/**
 * Contract 17: endpoint health written with each attempt, the auto-disable's conditional patch,
 * the headers an attempt was sent with, history filters and pages both ways, and recovery.
 */
export function endpointHealthContract({ storage: getStorage, f, seedWorkspace }: ContractContext): void {
  const w = webhookFixtures();
  const t = (ms: number) => f.at(ms);

  async function endpoint() {
    const storage = getStorage();
    const workspaceId = (await seedWorkspace()).workspace.id;
    const sub = w.subscription(workspaceId);
    await storage.webhookSubscriptions.insert(sub);
    return { storage, workspaceId, sub };
  }

  /** A delivery inserted already leased to `w1` (no claim: other tests' due rows can't interfere). */
  async function leased(storage: Storage, workspaceId: string, subscriptionId: string, over = {}) {
    const delivery = w.delivery(workspaceId, subscriptionId, { leaseUntil: t(99_000_000), leasedBy: "w1", ...over });
    await storage.webhookDeliveries.insert(delivery);
    return delivery;
  }

  /** The completion of one attempt at `at` ms: a success, or a failure answered `status`. */
  function attempted(delivery: WebhookDeliveryRecord, at: number, status: number | null): ClaimCompletion {
    const ok = status !== null && status < 300;
    const error = ok ? null : status === null ? "ECONNREFUSED" : `HTTP ${status}`;
    return {
      deliveryId: delivery.id,
      workerId: "w1",
      leaseUntil: delivery.leaseUntil!,
      outcome: {
        status: ok ? "succeeded" : "failed",
        attemptCount: 1,
        nextAttemptAt: t(at),
        lastError: error,
        deliveredAt: ok ? t(at) : null,
      },
      attempt: {
        id: f.id(),
        deliveryId: delivery.id,
        number: 1,
        attemptedAt: t(at),
        statusCode: status,
        durationMs: 4,
        error,
        responseBodyPrefix: null,
        requestHeaders: { "content-type": "application/json", "vitrina-signature": `t=${at},v1=<redacted>` },
      },
    };
  }

  describe("endpoint health (contract 17)", () => {
    it("records the newest attempt and when failing began; a success clears it, an older attempt changes nothing", async () => {
      const { storage, workspaceId, sub } = await endpoint();
      const complete = async (at: number, status: number | null) => {
        const d = await leased(storage, workspaceId, sub.id);
        expect(await storage.webhookDeliveries.completeClaims([attempted(d, at, status)])).toEqual([true]);
        return storage.webhookSubscriptions.get(workspaceId, sub.id);
      };
      expect(await storage.webhookSubscriptions.get(workspaceId, sub.id)).toMatchObject({
        failingSince: null,
        lastAttemptAt: null,
      });
      expect(await complete(1_000, 500)).toMatchObject({
        failingSince: t(1_000),
        lastAttemptAt: t(1_000),
        lastAttemptStatusCode: 500,
        lastAttemptError: "HTTP 500",
      });
      expect(await complete(2_000, null)).toMatchObject({
        failingSince: t(1_000),
        lastAttemptAt: t(2_000),
        lastAttemptStatusCode: null,
        lastAttemptError: "ECONNREFUSED",
      });
      // Late news of an earlier attempt: the newer one stays the last, failing_since untouched.
      expect(await complete(1_500, 200)).toMatchObject({ failingSince: t(1_000), lastAttemptAt: t(2_000) });
      expect(await complete(3_000, 204)).toMatchObject({
        failingSince: null,
        lastAttemptAt: t(3_000),
        lastAttemptStatusCode: 204,
        lastAttemptError: null,
      });
      // In one batch: a success then two failures leaves failing since the first failure after it.
      const [a, b, c] = [
        await leased(storage, workspaceId, sub.id),
        await leased(storage, workspaceId, sub.id),
        await leased(storage, workspaceId, sub.id),
      ];
      const batch = [attempted(b, 5_000, 503), attempted(a, 4_000, 200), attempted(c, 6_000, 503)];
      expect(await storage.webhookDeliveries.completeClaims(batch)).toEqual([true, true, true]);
      expect(await storage.webhookSubscriptions.get(workspaceId, sub.id)).toMatchObject({
        failingSince: t(5_000),
        lastAttemptAt: t(6_000),
        lastAttemptStatusCode: 503,
      });
      // Each attempt keeps the headers it went out with, whatever its place in the batch.
      for (const [d, at] of [
        [a, 4_000],
        [b, 5_000],
        [c, 6_000],
      ] as const) {
        const [attempt] = await storage.webhookAttempts.listByDeliveries([d.id]);
        expect(attempt!.requestHeaders).toEqual({
          "content-type": "application/json",
          "vitrina-signature": `t=${at},v1=<redacted>`,
        });
      }
      // An attempt that sent no request (refused before it) has none, beside one that did.
      const [quiet, loud] = [await leased(storage, workspaceId, sub.id), await leased(storage, workspaceId, sub.id)];
      const none = attempted(quiet, 7_000, null);
      none.attempt = { ...none.attempt!, requestHeaders: null };
      expect(await storage.webhookDeliveries.completeClaims([none, attempted(loud, 7_001, 200)])).toEqual([true, true]);
      // Absent or null: the port allows either for an attempt without headers.
      expect((await storage.webhookAttempts.listByDeliveries([quiet.id]))[0]!.requestHeaders ?? null).toBeNull();
      expect((await storage.webhookAttempts.listByDeliveries([loud.id]))[0]!.requestHeaders).toEqual({
        "content-type": "application/json",
        "vitrina-signature": "t=7001,v1=<redacted>",
      });
    });

    it("disables only while failing since the cutoff (onlyIfFailingSince); a re-enable clears failingSince", async () => {
      const { storage, workspaceId, sub } = await endpoint();
      const disable = (cutoff: number) =>
        storage.webhookSubscriptions.patch(workspaceId, sub.id, {
          enabled: false,
          disabledReason: "failed every delivery attempt for 5 days",
          onlyIfEnabled: true,
          onlyIfFailingSince: t(cutoff),
          updatedAt: t(50_000),
        });
      expect(await disable(10_000)).toBeNull(); // never failed
      const d = await leased(storage, workspaceId, sub.id);
      await storage.webhookDeliveries.completeClaims([attempted(d, 8_000, 500)]);
      expect(await disable(7_999)).toBeNull(); // failing, but not for long enough
      expect(await storage.webhookSubscriptions.get(workspaceId, sub.id)).toMatchObject({ enabled: true });
      expect(await disable(8_000)).toMatchObject({ enabled: false, failingSince: t(8_000) });
      expect(await disable(9_000)).toBeNull(); // disabled already: nothing written twice
      const enabled = await storage.webhookSubscriptions.patch(workspaceId, sub.id, {
        enabled: true,
        disabledReason: null,
        updatedAt: t(60_000),
      });
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
      expect(await storage.webhookSubscriptions.get(workspaceId, sub.id)).toEqual(enabled);
    });
  });

  describe("delivery history filters and recovery (contract 17)", () => {
    /** Five deliveries a second apart, statuses and types mixed, newest last. */
    async function history() {
      const { storage, workspaceId, sub } = await endpoint();
      const kinds = [
        ["failed", "order.confirmed"],
        ["succeeded", "payment.succeeded"],
        ["failed", "payment.succeeded"],
        ["pending", "order.confirmed"],
        ["failed", "order.confirmed"],
      ] as const;
      const rows: WebhookDeliveryRecord[] = [];
      for (const [i, [status, eventType]] of kinds.entries()) {
        const row = w.delivery(workspaceId, sub.id, {
          status,
          eventType,
          attemptCount: status === "pending" ? 0 : 2,
          createdAt: t(i * 1_000),
          nextAttemptAt: t(i * 1_000),
        });
        await storage.webhookDeliveries.insert(row);
        rows.push(row);
      }
      return { storage, workspaceId, sub, rows };
    }

    it("filters by status, event type and event id, and pages older and newer from a cursor", async () => {
      const { storage, sub, rows } = await history();
      const ids = async (options: Parameters<Storage["webhookDeliveries"]["listBySubscription"]>[1]) =>
        (await storage.webhookDeliveries.listBySubscription(sub.id, options)).map((d) => d.id);
      const [r0, r1, r2, r3, r4] = rows.map((r) => r.id);
      expect(await ids({ limit: 10, status: "failed" })).toEqual([r4, r2, r0]);
      expect(await ids({ limit: 10, eventType: "payment.succeeded" })).toEqual([r2, r1]);
      expect(await ids({ limit: 10, status: "failed", eventType: "order.confirmed" })).toEqual([r4, r0]);
      expect(await ids({ limit: 10, eventId: rows[3]!.eventId })).toEqual([r3]);
      expect(await ids({ limit: 10, eventId: "evt_unknown" })).toEqual([]);
      expect(await ids({ limit: 2, startingAfter: r3 })).toEqual([r2, r1]);
      // The page above a cursor: the ones nearest to it, newest first.
      expect(await ids({ limit: 2, endingBefore: r1 })).toEqual([r3, r2]);
      expect(await ids({ limit: 10, endingBefore: r1 })).toEqual([r4, r3, r2]);
      expect(await ids({ limit: 10, endingBefore: r1, status: "failed" })).toEqual([r4, r2]);
      expect(await ids({ limit: 10, endingBefore: r4 })).toEqual([]);
      expect(await ids({ limit: 10, endingBefore: "whd_unknown" })).toEqual([]);
    });

    it("requeues failed deliveries since a time, oldest first, bounded, and never the same one twice", async () => {
      const { storage, workspaceId, sub, rows } = await history();
      const recover = (limit: number) =>
        storage.webhookDeliveries.requeueFailed(workspaceId, sub.id, {
          since: t(1),
          limit,
          now: t(90_000),
          retryUntil: t(90_000 + 86_400_000),
        });
      const first = await recover(1);
      expect(first.requeued.map((d) => d.id)).toEqual([rows[2]!.id]); // rows[0] is before `since`
      expect(first.more).toBe(true);
      expect(first.requeued[0]).toMatchObject({
        status: "pending",
        nextAttemptAt: t(90_000),
        retryUntil: t(90_000 + 86_400_000),
        attemptsBeforeResend: 2,
        leaseUntil: null,
      });
      expect(await storage.webhookDeliveries.get(workspaceId, rows[2]!.id)).toEqual(first.requeued[0]);
      const second = await recover(10);
      expect(second).toMatchObject({ more: false });
      expect(second.requeued.map((d) => d.id)).toEqual([rows[4]!.id]);
      expect(await recover(10)).toEqual({ requeued: [], more: false });
      expect((await storage.webhookDeliveries.get(workspaceId, rows[0]!.id))!.status).toBe("failed");
      const other = await seedWorkspace();
      const foreign = await storage.webhookDeliveries.requeueFailed(other.workspace.id, sub.id, {
        since: t(-1),
        limit: 10,
        now: t(90_000),
        retryUntil: t(90_001),
      });
      expect(foreign).toEqual({ requeued: [], more: false });
    });

    it("counts attempts and successes per subscription since a time", async () => {
      const { storage, workspaceId, sub } = await endpoint();
      const quiet = w.subscription(workspaceId);
      await storage.webhookSubscriptions.insert(quiet);
      for (const [at, status] of [
        [1_000, 500],
        [2_000, 200],
        [3_000, null],
        [4_000, 204],
      ] as const) {
        const d = await leased(storage, workspaceId, sub.id);
        await storage.webhookDeliveries.completeClaims([attempted(d, at, status)]);
      }
      expect(await storage.webhookDeliveries.attemptCounts(workspaceId, [sub.id, quiet.id], t(2_000))).toEqual([
        { subscriptionId: sub.id, attempts: 3, succeeded: 2 },
      ]);
      expect(await storage.webhookDeliveries.attemptCounts(workspaceId, [sub.id], t(0))).toEqual([
        { subscriptionId: sub.id, attempts: 4, succeeded: 2 },
      ]);
      const other = (await seedWorkspace()).workspace.id;
      expect(await storage.webhookDeliveries.attemptCounts(other, [sub.id], t(0))).toEqual([]);
    });
  });
}
