import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { fixtures } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";
import { webhookFixtures } from "../../core/src/testing/webhook-fixtures.js";
import { runTransaction, type Queryable } from "../src/driver.js";
import { claimDueDeliveries } from "../src/repositories/delivery-claims.js";
import { backends, openTestStorage } from "./support.js";

// One receiver slow enough to hold all its slots while its backlog grows: each claim made for
// another subscription used to read past every due row of that backlog (31.5 ms for a claim that
// found nothing behind 50,000). These count the rows a claim reads from the deliveries table, off
// the plan PostgreSQL ran (EXPLAIN ANALYZE, rolled back), so they hold on any machine's speed.

const BACKLOG = 2_000;
const CAP = 4;

interface PlanNode {
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

/** Rows the plan's nodes on `relation` read: those they returned and those their filters removed. */
function rowsRead(node: PlanNode, relation: string): number {
  const loops = node["Actual Loops"] ?? 1;
  const own =
    node["Relation Name"] === relation
      ? ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) * loops
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, relation), 0);
}

/** Runs `work` in a transaction (the adapter's own) that is then rolled back. */
async function inRolledBackTransaction(db: PGlite | pg.Pool, work: (q: Queryable) => Promise<void>) {
  const rolledBack = new Error("rolled back by the test");
  await expect(
    runTransaction(db, undefined, async (q) => {
      await work(q);
      throw rolledBack;
    }),
  ).rejects.toBe(rolledBack);
}

/** A Queryable that runs each statement under EXPLAIN ANALYZE first (undone) and keeps its rows read. */
function explaining(q: Queryable, read: number[]): Queryable {
  return {
    async query(text: string, params?: unknown[]) {
      await q.query("SAVEPOINT explained");
      const { rows } = await q.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params);
      await q.query("ROLLBACK TO SAVEPOINT explained");
      const plan = rows[0]["QUERY PLAN"];
      read.push(rowsRead((typeof plan === "string" ? JSON.parse(plan) : plan)[0].Plan, "webhook_deliveries"));
      return q.query(text, params);
    },
  } as Queryable;
}

describe.each(backends)("a claim beside a subscription at its cap (%s)", (backend) => {
  it(`reads none of that subscription's ${BACKLOG} due rows, and still takes the others' in due order`, async () => {
    const { storage, db, schema } = await openTestStorage(backend);
    const s = `"${schema}"`;
    const sql = db as unknown as Queryable;
    try {
      const f = fixtures();
      const w = webhookFixtures();
      const workspace = f.workspace();
      await storage.workspaces.insert(workspace);
      const [slow, quick] = [w.subscription(workspace.id), w.subscription(workspace.id)];
      for (const sub of [slow, quick]) await storage.webhookSubscriptions.insert(sub);
      const deliveries = (subscriptionId: string, count: number, dueAt: string) =>
        sql.query(
          `INSERT INTO ${s}.webhook_deliveries (id, workspace_id, subscription_id, event_id, event_type, status,
             attempt_count, next_attempt_at, retry_until, created_at)
           SELECT $1 || n, $4, $1, 'evt_' || $1 || n, 'lead.created', 'pending', 0,
             $3::timestamptz + n * interval '1 ms', $3::timestamptz + interval '1 day', $3::timestamptz
           FROM generate_series(1, $2::int) AS n`,
          [subscriptionId, count, dueAt, workspace.id],
        );
      // The slow one's backlog is due first; a deleted subscription's row and the quick one's after it.
      await deliveries(slow.id, BACKLOG, "2026-01-01T00:00:00Z");
      await deliveries("whs_gone", 1, "2026-01-01T01:00:00Z");
      await deliveries(quick.id, 2, "2026-01-01T02:00:00Z");
      await sql.query(`ANALYZE ${s}.webhook_deliveries`);
      const claim = {
        now: "2026-01-02T00:00:00.000Z",
        limit: 16,
        leaseUntil: "2026-01-02T00:01:00.000Z",
        workerId: "w",
      };

      const read: number[] = [];
      let taken: string[] = [];
      await inRolledBackTransaction(db, async (q) => {
        const claimed = await claimDueDeliveries(explaining(q, read), s, {
          ...claim,
          cap: { max: CAP, held: { [slow.id]: CAP } },
        });
        taken = claimed.map(({ delivery }) => delivery.id);
      });
      expect(taken).toEqual(["whs_gone1", `${quick.id}1`, `${quick.id}2`]);
      // One statement; a few rows per subscription with pending rows, none of the slow one's backlog.
      expect(read).toHaveLength(1);
      expect(read[0]).toBeLessThan(50);

      // With nobody at the cap, a claim reads in due order: the slow one's first rows up to its cap,
      // reading at most four batches ahead.
      const inDueOrder: number[] = [];
      await inRolledBackTransaction(db, async (q) => {
        const claimed = await claimDueDeliveries(explaining(q, inDueOrder), s, {
          ...claim,
          cap: { max: CAP, held: {} },
        });
        expect(claimed.map(({ delivery }) => delivery.id)).toEqual([1, 2, 3, 4].map((n) => `${slow.id}${n}`));
      });
      expect(inDueOrder).toHaveLength(1);
      // (Four batches read ahead, then the rows taken again as they are locked and leased.)
      expect(inDueOrder[0]).toBeLessThan(100);
    } finally {
      await storage.close();
    }
  }, 60_000);
});
