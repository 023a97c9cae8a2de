import { fixtures } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";
import { webhookFixtures } from "../../core/src/testing/webhook-fixtures.js";
import { DATABASE_URL, openTestStorage } from "./support.js";

if (!DATABASE_URL) console.warn("resend.concurrency: skipped, races need real PostgreSQL (set DATABASE_URL)");

// A worker whose lease ran out records a failed attempt just as an operator resends the delivery.
// `reschedule` sets `attempts_before_resend = attempt_count` in its one conditional UPDATE, so it
// counts exactly the attempts committed before it: either the late attempt landed first (and is
// counted, so the fresh schedule starts after it), or the resend did (and the late completion,
// whose lease the resend cleared, writes nothing). A read-then-write resend could read the count
// before the late attempt and write it after, leaving the backoff one attempt into the new cycle.
// PGlite runs one statement at a time, so only a real server races.
describe.runIf(DATABASE_URL)("resend racing a late completion on PostgreSQL", () => {
  it("counts exactly the attempts committed before the resend, and is never undone, over 100 races", async () => {
    const f = fixtures();
    const w = webhookFixtures();
    const { storage } = await openTestStorage("PostgreSQL");
    const deliveries = storage.webhookDeliveries;
    try {
      const workspace = f.workspace();
      await storage.workspaces.insert(workspace);
      const sub = w.subscription(workspace.id);
      await storage.webhookSubscriptions.insert(sub);
      const violations: string[] = [];
      let completerFirst = 0;
      let resendFirst = 0;
      for (let round = 0; round < 100; round++) {
        const now = f.at(round * 1000 + 500);
        // Five attempts so far, the sixth in flight under a lease that expired just before `now`.
        const rows = Array.from({ length: 8 }, () =>
          w.delivery(workspace.id, sub.id, {
            attemptCount: 5,
            nextAttemptAt: f.at(round * 1000),
            leasedBy: `late-${round}`,
            leaseUntil: f.at(round * 1000 + 100),
          }),
        );
        for (const d of rows) await deliveries.insert(d);
        const completions = rows.map((d) => ({
          deliveryId: d.id,
          workerId: `late-${round}`,
          leaseUntil: d.leaseUntil!,
          outcome: {
            status: "pending" as const,
            attemptCount: 6,
            nextAttemptAt: f.at(1e12),
            lastError: "HTTP 503",
            deliveredAt: null,
          },
        }));
        const [recorded, ...resent] = await Promise.all([
          deliveries.completeClaims(completions),
          ...rows.map((d) => deliveries.reschedule(workspace.id, d.id, now, f.at(1e12 + 1))),
        ]);
        for (const [i, d] of rows.entries()) {
          const stored = await deliveries.get(workspace.id, d.id);
          const counted = recorded[i] ? 6 : 5;
          if (recorded[i]) completerFirst++;
          else resendFirst++;
          const where = `round ${round}, row ${i}`;
          if (resent[i] === null) violations.push(`${where}: resend refused`);
          if (stored?.attemptCount !== counted || stored.attemptsBeforeResend !== counted)
            violations.push(
              `${where}: ${stored?.attemptCount} attempts, ${stored?.attemptsBeforeResend} before resend`,
            );
          if (stored?.nextAttemptAt !== now || stored.leasedBy !== null) violations.push(`${where}: resend undone`);
        }
      }
      console.info(`resend.concurrency: late completion first for ${completerFirst} rows, resend for ${resendFirst}`);
      expect(violations).toEqual([]);
    } finally {
      await storage.close();
    }
  }, 120_000);
});
