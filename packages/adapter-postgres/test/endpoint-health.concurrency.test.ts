import { fixtures } from "@vitrina/core/testing";
import type { Storage } from "@vitrina/core";
import type { ClaimCompletion, WebhookDeliveryRecord } from "@vitrina/core/storage";
import { describe, expect, it } from "vitest";
import { webhookFixtures } from "../../core/src/testing/webhook-fixtures.js";
import { DATABASE_URL, openTestStorage, testVitrina } from "./support.js";

if (!DATABASE_URL) console.warn("endpoint-health.concurrency: skipped, races need real PostgreSQL (set DATABASE_URL)");

const DAY = 86_400_000;
const f = fixtures();
const w = webhookFixtures();

/** A failed attempt (HTTP 500) at `attemptedAt`, completing `d` under the lease `workerId` holds. */
function failedAttempt(d: WebhookDeliveryRecord, workerId: string, attemptedAt: string): ClaimCompletion {
  return {
    deliveryId: d.id,
    workerId,
    leaseUntil: d.leaseUntil!,
    outcome: {
      status: "failed",
      attemptCount: 1,
      nextAttemptAt: attemptedAt,
      lastError: "HTTP 500",
      deliveredAt: null,
    },
    attempt: {
      id: f.id(),
      deliveryId: d.id,
      number: 1,
      attemptedAt,
      statusCode: 500,
      durationMs: 3,
      error: "HTTP 500",
    },
  };
}

/** A receiver that answers 500 to everything, without a socket: the dispatcher's `send`. */
const failing = async () => ({ status: 500, head: new Uint8Array() });

/**
 * A subscription that has failed every attempt for six days (one old failed attempt recorded the
 * way a worker records it), with two deliveries due now, and a second subscription that listens
 * for `webhook_endpoint.disabled`.
 */
async function failingEndpoint(storage: Storage, workspaceId: string, round: number) {
  // Never closed: closing a Vitrina closes its storage, which the test closes itself.
  const vitrina = testVitrina(storage, {
    webhooks: { allowInsecureLoopback: true, send: failing, externalWorker: true },
  });
  const failingSub = await vitrina.webhooks.create(workspaceId, {
    url: `http://127.0.0.1:9/failing-${round}`,
    events: ["order.confirmed"],
    secret: "whsec_test_0123456789abcdef",
  });
  const listener = await vitrina.webhooks.create(workspaceId, {
    url: `http://127.0.0.1:9/listener-${round}`,
    events: ["webhook_endpoint.disabled"],
    secret: "whsec_test_0123456789abcdef",
  });
  const old = w.delivery(workspaceId, failingSub.id, { leaseUntil: f.at(1), leasedBy: "old" });
  await storage.webhookDeliveries.insert(old);
  const sixDaysAgo = new Date(Date.now() - 6 * DAY).toISOString();
  await storage.webhookDeliveries.completeClaims([failedAttempt(old, "old", sixDaysAgo)]);
  for (let i = 0; i < 2; i++) {
    const event = w.event(workspaceId, { created: f.at(round) });
    await storage.events.append(event);
    await storage.webhookDeliveries.insert(
      w.delivery(workspaceId, failingSub.id, { eventId: event.id, nextAttemptAt: f.at(round), createdAt: f.at(round) }),
    );
  }
  return { failingId: failingSub.id, listenerId: listener.id };
}

// Two workers record a failure of the same endpoint at the same moment, both past the five-day
// mark. The disable is one conditional UPDATE (only while enabled and failing since the cutoff)
// with the event emitted in its transaction only when that UPDATE wrote the row, so exactly one
// worker disables it and one `webhook_endpoint.disabled` is fanned out. A read-then-write check
// ("is it enabled? then disable and emit") lets both workers see it enabled and emit twice.
describe.runIf(DATABASE_URL)("auto-disable racing on PostgreSQL (READ COMMITTED)", () => {
  it("disables a failing endpoint once and emits one event when two workers fail it at once, over 100 races", async () => {
    const { storage } = await openTestStorage("PostgreSQL");
    const violations: string[] = [];
    try {
      const workspace = f.workspace();
      await storage.workspaces.insert(workspace);
      // Errors the workers log (a failed disable is logged, not thrown) count as violations too.
      const logged: string[] = [];
      const note = (fields: unknown, message?: string) => logged.push(`${message} ${JSON.stringify(fields)}`);
      const logger = { debug() {}, info() {}, warn() {}, error: note };
      const workers = ["w1", "w2"].map((id) => ({
        id,
        vitrina: testVitrina(storage, {
          logger,
          webhooks: { allowInsecureLoopback: true, send: failing, externalWorker: true },
        }),
      }));
      for (let round = 0; round < 100; round++) {
        const { failingId, listenerId } = await failingEndpoint(storage, workspace.id, round);
        // One delivery each (claimed one after the other); the race is in recording the two failures.
        const claims = [];
        for (const { id, vitrina } of workers)
          claims.push({ id, vitrina, claimed: await vitrina.outbox.dispatcher.claim(id, 1) });
        await Promise.all(
          claims.flatMap(({ id, vitrina, claimed }) => claimed.map((c) => vitrina.outbox.dispatcher.deliver(c, id))),
        );
        const attempted = claims.reduce((n, c) => n + c.claimed.length, 0);
        const sub = await storage.webhookSubscriptions.get(workspace.id, failingId);
        const notices = (
          await storage.events.listByWorkspace(workspace.id, { type: "webhook_endpoint.disabled" })
        ).filter((e) => e.data.subscription_id === failingId);
        const toListener = await storage.webhookDeliveries.listBySubscription(listenerId, { limit: 10 });
        if (attempted !== 2) violations.push(`round ${round}: ${attempted} deliveries attempted, not 2`);
        if (sub?.enabled !== false) violations.push(`round ${round}: still enabled`);
        if (notices.length !== 1) violations.push(`round ${round}: ${notices.length} disabled events`);
        if (toListener.length !== 1) violations.push(`round ${round}: ${toListener.length} deliveries to the listener`);
        violations.push(...logged.splice(0).map((line) => `round ${round}: logged ${line}`));
      }
      expect(violations).toEqual([]);
    } finally {
      await storage.close();
    }
  }, 300_000);
});

// Two operators (or a double-clicked button) run the same recovery at once. The requeue locks the
// failed rows it picks with SKIP LOCKED and its UPDATE re-checks `failed` on each row it writes, so
// every failed delivery is requeued by exactly one of the calls. A select-then-update recovery
// requeues the same rows from both calls, and each would count (and report) them as its own.
describe.runIf(DATABASE_URL)("recovery racing on PostgreSQL (READ COMMITTED)", () => {
  it("requeues each failed delivery once across two concurrent recoveries, over 100 races", async () => {
    const { storage } = await openTestStorage("PostgreSQL");
    const violations: string[] = [];
    try {
      const workspace = f.workspace();
      await storage.workspaces.insert(workspace);
      const sub = w.subscription(workspace.id);
      await storage.webhookSubscriptions.insert(sub);
      for (let round = 0; round < 100; round++) {
        const since = f.at(round * 1000);
        const failed = Array.from({ length: 12 }, (_, i) =>
          w.delivery(workspace.id, sub.id, { status: "failed", attemptCount: 3, createdAt: f.at(round * 1000 + i) }),
        );
        for (const d of failed) await storage.webhookDeliveries.insert(d);
        const recover = () =>
          storage.webhookDeliveries.requeueFailed(workspace.id, sub.id, {
            since,
            limit: 50,
            now: f.at(round * 1000 + 500),
            retryUntil: f.at(1e12),
          });
        const [a, b] = await Promise.all([recover(), recover()]);
        const ids = [...a.requeued, ...b.requeued].map((d) => d.id);
        if (new Set(ids).size !== ids.length)
          violations.push(`round ${round}: requeued twice: ${ids.length - new Set(ids).size}`);
        if (new Set(ids).size !== failed.length)
          violations.push(`round ${round}: ${new Set(ids).size} of ${failed.length} requeued`);
        // Finish the round's rows so the next round's recovery sees only its own.
        for (const d of failed)
          await storage.webhookDeliveries.completeClaims([
            {
              deliveryId: d.id,
              workerId: "none",
              leaseUntil: f.at(0),
              outcome: {
                status: "succeeded",
                attemptCount: 4,
                nextAttemptAt: f.at(0),
                lastError: null,
                deliveredAt: f.at(0),
              },
            },
          ]);
        const left = await storage.webhookDeliveries.listBySubscription(sub.id, { limit: 100, status: "failed" });
        if (left.length > 0) violations.push(`round ${round}: ${left.length} failed deliveries left`);
      }
      expect(violations).toEqual([]);
    } finally {
      await storage.close();
    }
  }, 300_000);
});

// Two batches of completions touch the same two endpoints in opposite orders, the later attempts in
// the second. Each batch updates both subscriptions' health in its one statement, which writes only
// when its attempt is at least as new as the stored one (re-checked on the row it locked), so
// whichever commits last, the newest attempt stays: without that condition about half the rounds
// keep the older one. The id-ordered lock is defensive (no deadlock was seen without it either);
// any error, a deadlock (40P01) included, is a violation.
describe.runIf(DATABASE_URL)("health writes of concurrent batches on PostgreSQL", () => {
  it("keep the newest attempt whichever commits last, without errors, over 100 races", async () => {
    const { storage } = await openTestStorage("PostgreSQL");
    const errors: string[] = [];
    try {
      const workspace = f.workspace();
      await storage.workspaces.insert(workspace);
      const subs = [w.subscription(workspace.id), w.subscription(workspace.id)];
      for (const s of subs) await storage.webhookSubscriptions.insert(s);
      for (let round = 0; round < 100; round++) {
        const batch = async (order: number[], at: number, worker: string) => {
          const completions = [];
          for (const i of order) {
            const d = w.delivery(workspace.id, subs[i]!.id, { leaseUntil: f.at(1e9), leasedBy: worker });
            await storage.webhookDeliveries.insert(d);
            completions.push(failedAttempt(d, worker, f.at(round * 10 + at)));
          }
          return completions;
        };
        const [one, two] = await Promise.all([batch([0, 1], 1, "a"), batch([1, 0], 2, "b")]);
        await Promise.all(
          [one, two].map((c) =>
            storage.webhookDeliveries
              .completeClaims(c)
              .catch((e: unknown) => errors.push(`round ${round}: ${String(e)}`)),
          ),
        );
        for (const s of subs) {
          const stored = await storage.webhookSubscriptions.get(workspace.id, s.id);
          if (stored?.lastAttemptAt !== f.at(round * 10 + 2))
            errors.push(`round ${round}: last attempt ${stored?.lastAttemptAt}`);
        }
      }
      expect(errors).toEqual([]);
    } finally {
      await storage.close();
    }
  }, 300_000);
});
