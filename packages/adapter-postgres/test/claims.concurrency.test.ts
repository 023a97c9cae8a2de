import type { Storage, WebhookSubscriptionRecord, WorkspaceRecord } from "@vitrina/core/storage";
import { fixtures } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";
import { webhookFixtures } from "../../core/src/testing/webhook-fixtures.js";
import { DATABASE_URL, openTestStorage } from "./support.js";

if (!DATABASE_URL) console.warn("claims.concurrency: skipped, races need real PostgreSQL (set DATABASE_URL)");

interface Outbox {
  f: ReturnType<typeof fixtures>;
  w: ReturnType<typeof webhookFixtures>;
  storage: Storage;
  workspace: WorkspaceRecord;
  subs: WebhookSubscriptionRecord[];
}

/** A PostgreSQL storage with one workspace and `subscriptions` subscriptions for `race`, closed after it. */
async function withOutbox(subscriptions: number, race: (outbox: Outbox) => Promise<void>) {
  const f = fixtures();
  const w = webhookFixtures();
  const { storage } = await openTestStorage("PostgreSQL");
  try {
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    const subs = Array.from({ length: subscriptions }, () => w.subscription(workspace.id));
    for (const sub of subs) await storage.webhookSubscriptions.insert(sub);
    await race({ f, w, storage, workspace, subs });
  } finally {
    await storage.close();
  }
}

// PGlite runs one statement at a time, so only a real server can race claims against each other.
describe.runIf(DATABASE_URL)("outbox claims racing on PostgreSQL", () => {
  it(
    "never hand one delivery to two claimers, nor more of a subscription than its cap, over 120 races",
    () =>
      withOutbox(3, async ({ f, w, storage, workspace, subs }) => {
        let doubleClaims = 0;
        let overCap = 0;
        for (let round = 0; round < 120; round++) {
          // Fresh due rows each round; earlier rounds' rows stay leased far into the future.
          const rows = subs.flatMap((sub) =>
            [0, 1, 2, 3].map((i) => w.delivery(workspace.id, sub.id, { nextAttemptAt: f.at(round * 10 + i) })),
          );
          for (const d of rows) await storage.webhookDeliveries.insert(d);
          const now = f.at(round * 10 + 5);
          const held = { [subs[0]!.id]: round % 3 };
          const claims = await Promise.all(
            Array.from({ length: 6 }, (_, i) =>
              storage.webhookDeliveries.claimDueDeliveries(now, 3, f.at(1e12), `w${round}-${i}`, { max: 2, held }),
            ),
          );
          const ids = claims.flat().map(({ delivery }) => delivery.id);
          doubleClaims += ids.length - new Set(ids).size;
          for (const claim of claims) {
            for (const sub of subs) {
              const taken = claim.filter(({ delivery }) => delivery.subscriptionId === sub.id).length;
              if (taken + (held[sub.id] ?? 0) > 2 && taken > 0) overCap++;
            }
          }
        }
        expect({ doubleClaims, overCap }).toEqual({ doubleClaims: 0, overCap: 0 });
      }),
    120_000,
  );

  // Two workers draining one backlog claim at the same moment and want the same first rows. The one
  // that locks them second must go on to the next rows, not come back short: its worker would then
  // wait for the next commit or the sweep with a backlog due. The backlog is ten batches deep, more
  // than one claim ever locks at once (its batch, and four times that read ahead under a cap), so
  // rows for both are always there. With a room of 4 under the cap, and with no cap, 100 races each;
  // and with another subscription at its cap, where claims read per subscription (delivery-claims.ts).
  it.each([
    ["a room of 4 under the cap", 4, (sub: string) => ({ max: 32, held: { [sub]: 28 } })],
    ["no cap", 8, () => undefined],
    ["another subscription at its cap", 8, (sub: string) => ({ max: 32, held: { [sub]: 20, whs_capped: 32 } })],
  ])(
    "gives each of two claimers racing for one backlog a full batch, with %s, over 100 races",
    (_case, batch, capOf) =>
      withOutbox(1, async ({ f, w, storage, workspace, subs: [subscription] }) => {
        const short: string[] = [];
        let doubleClaims = 0;
        for (let round = 0; round < 100; round++) {
          // Fresh due rows each round; earlier rounds' rows stay leased far into the future.
          const rows = Array.from({ length: 10 * batch }, (_, i) =>
            w.delivery(workspace.id, subscription!.id, { nextAttemptAt: f.at(round * 100 + i) }),
          );
          for (const d of rows) await storage.webhookDeliveries.insert(d);
          const now = f.at(round * 100 + 99);
          const claims = await Promise.all(
            [0, 1].map((i) =>
              storage.webhookDeliveries.claimDueDeliveries(
                now,
                8,
                f.at(1e12),
                `w${round}-${i}`,
                capOf(subscription!.id),
              ),
            ),
          );
          claims.forEach((claim, i) => {
            if (claim.length !== batch) short.push(`round ${round}, claimer ${i}: ${claim.length} of ${batch}`);
          });
          const ids = claims.flat().map(({ delivery }) => delivery.id);
          doubleClaims += ids.length - new Set(ids).size;
        }
        expect({ short, doubleClaims }).toEqual({ short: [], doubleClaims: 0 });
      }),
    120_000,
  );

  // A worker whose lease ran out records its batch of outcomes just as another worker claims the same
  // rows. For every row exactly one of them may win: the late outcome is written (and the row is no
  // longer due, so the claim passes it over), or the claim takes the row (and the late outcome writes
  // nothing, attempt included). Both winning would deliver the event twice with one attempt lost;
  // neither would strand the row. PGlite runs one statement at a time, so only a real server races.
  // The claimer may be the late worker itself (its completion stalled past the lease and it claimed
  // the rows again): only the lease, not the worker id, tells its two attempts apart.
  it.each([
    ["another worker", "new"],
    ["the late worker itself", "late"],
  ])(
    "settles every row for exactly one of the late completer and a new claim by %s, over 100 races",
    (_claimer, claimerPrefix) =>
      withOutbox(1, async ({ f, w, storage, workspace, subs: [subscription] }) => {
        const violations: string[] = [];
        let completerWon = 0;
        let claimerWon = 0;
        for (let round = 0; round < 100; round++) {
          const now = f.at(round * 1000 + 500);
          // Due, and leased to "late" by a lease that expired just before `now`.
          const rows = Array.from({ length: 8 }, (_, i) =>
            w.delivery(workspace.id, subscription!.id, {
              nextAttemptAt: f.at(round * 1000 + i),
              leasedBy: `late-${round}`,
              leaseUntil: f.at(round * 1000 + 100),
            }),
          );
          for (const d of rows) await storage.webhookDeliveries.insert(d);
          const completions = rows.map((d) => ({
            deliveryId: d.id,
            workerId: `late-${round}`,
            leaseUntil: d.leaseUntil!,
            // A failed attempt, retried later: the row stays pending but is no longer due at `now`.
            outcome: {
              status: "pending" as const,
              attemptCount: 1,
              nextAttemptAt: f.at(1e12),
              lastError: "HTTP 500",
              deliveredAt: null,
            },
            attempt: {
              id: f.id(),
              deliveryId: d.id,
              number: 1,
              attemptedAt: now,
              statusCode: 500,
              durationMs: 3,
              error: "HTTP 500",
              responseBodyPrefix: "",
            },
          }));
          const [recorded, claimed] = await Promise.all([
            storage.webhookDeliveries.completeClaims(completions),
            storage.webhookDeliveries.claimDueDeliveries(now, 8, f.at(1e12 + 1), `${claimerPrefix}-${round}`),
          ]);
          const claimedIds = new Set(claimed.map(({ delivery }) => delivery.id));
          const attempts = await storage.webhookAttempts.listByDeliveries(rows.map((d) => d.id));
          const attempted = new Set(attempts.map((a) => a.deliveryId));
          rows.forEach((d, i) => {
            const wins = Number(recorded[i]) + Number(claimedIds.has(d.id));
            if (wins !== 1) violations.push(`round ${round}, row ${i}: ${wins} winners`);
            if (attempted.has(d.id) !== recorded[i]) violations.push(`round ${round}, row ${i}: attempt ≠ outcome`);
            if (recorded[i]) completerWon++;
            else claimerWon++;
          });
        }
        console.info(`claims.concurrency: late completer won ${completerWon} rows, new claimer ${claimerWon}`);
        expect(violations).toEqual([]);
      }),
    120_000,
  );
});
