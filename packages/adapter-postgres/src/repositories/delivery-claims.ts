import { dueOrder, type ClaimedDelivery, type PerSubscriptionCap } from "@vitrina/core/storage";
import type { Queryable } from "../driver.js";
import { toDelivery } from "./delivery-rows.js";
import { toEvent } from "./events.js";
import { toSubscription } from "./subscriptions.js";
import { json, textPerSchema } from "../rows.js";

const MAX_INT = 2 ** 31 - 1;

/** Under a cap, how far past the batch a claim reads, so one subscription's rows past its room don't crowd out another's. */
const READ_AHEAD = 4;

// Every statement here takes the same parameters: $1 now, $2 the batch, $3 the lease's end, $4 the
// worker, $5 the rows held per subscription (jsonb), $6 the cap, $7 how many due rows to read (in
// all, or per subscription: see `candidates`).

/** What a claimer already holds of subscription `id`, as `$5` gives it. */
const heldOf = (id: string) => `coalesce(($5::jsonb ->> ${id})::int, 0)`;
const dueAndFree = `status = 'pending' AND next_attempt_at <= $1::timestamptz
     AND (lease_until IS NULL OR lease_until <= $1::timestamptz)`;

/**
 * The `candidates` CTE (with `lock`, locking what it reads, skipping rows others hold): due rows of
 * subscriptions below their cap. Two ways to read them, which find the same rows:
 * - `inDueOrder` walks the due-order index and leaves the rows of subscriptions at their cap, up to
 *   `$7` rows in all;
 * - `perSubscription` reads the subscriptions with pending rows off the per-subscription index
 *   (one index descent each, skipping from one to the next), then for each below its cap the first
 *   due rows it has room for, up to `$7`. It never reads a capped subscription's rows.
 * The first is what a claim uses while no subscription is at its cap: it costs one index walk where
 * the second costs a descent per subscription with pending rows (many, while receivers fail and
 * their rows wait for retries). While one is at its cap, the first would read past every due row of
 * its backlog on each claim: 17 ms for a claim that found nothing beside 50,000 of them, against
 * 0.46 ms reading per subscription (the adapter's README).
 */
const candidates = {
  inDueOrder: (d: string, lock: string) =>
    `candidates AS (
       SELECT id, subscription_id, next_attempt_at FROM ${d}
       WHERE ${dueAndFree} AND ${heldOf("subscription_id")} < $6
       ORDER BY next_attempt_at, id LIMIT $7 ${lock})`,
  perSubscription: (d: string, lock: string) =>
    `pending_subscriptions (id) AS (
       (SELECT subscription_id FROM ${d} WHERE status = 'pending' ORDER BY subscription_id LIMIT 1)
       UNION ALL
       SELECT (SELECT subscription_id FROM ${d} WHERE status = 'pending' AND subscription_id > p.id
               ORDER BY subscription_id LIMIT 1)
       FROM pending_subscriptions p WHERE p.id IS NOT NULL
     ), candidates AS (
       SELECT due.* FROM pending_subscriptions p CROSS JOIN LATERAL (
         SELECT id, subscription_id, next_attempt_at FROM ${d}
         WHERE subscription_id = p.id AND ${dueAndFree}
         ORDER BY next_attempt_at, id LIMIT greatest(0, least($7, $6 - ${heldOf("p.id")})) ${lock}
       ) AS due
       WHERE p.id IS NOT NULL AND ${heldOf("p.id")} < $6)`,
};
type ReadCandidates = (typeof candidates)[keyof typeof candidates];

/** Of `candidates`, the first that fit their subscription's room, up to the batch. */
const fittingRows = `SELECT id FROM (
     SELECT id, next_attempt_at, coalesce(($5::jsonb ->> subscription_id)::int, 0)
       + row_number() OVER (PARTITION BY subscription_id ORDER BY next_attempt_at, id) AS slot
     FROM candidates) AS ranked
   WHERE slot <= $6 ORDER BY next_attempt_at, id LIMIT $2`;

/** Leases the rows `chosen` names. */
const leaseChosen = (d: string) =>
  `claimed AS (
     UPDATE ${d} AS d SET lease_until = $3, leased_by = $4 FROM chosen WHERE d.id = chosen.id RETURNING d.*
   )`;

/**
 * Each claimed row with its event as JSON (timestamps as ISO strings, which the row mappers accept
 * as well as Dates), so sending a batch needs no second read. Its subscription's JSON comes on the
 * first of its rows only (`carries_subscription`; null there when it was deleted): a batch is
 * mostly one subscription's rows, and writing and reading the same subscription on each of them
 * cost both sides more than the rest of the row.
 */
const firstOfSubscription = "row_number() OVER (PARTITION BY claimed.subscription_id ORDER BY claimed.id) = 1";
const withEventAndSubscription = (s: string, from: string) =>
  `claimed.*, to_json(e) AS claimed_event, ${firstOfSubscription} AS carries_subscription,
     CASE WHEN ${firstOfSubscription} THEN to_json(w) END AS claimed_subscription
   FROM ${from}
   LEFT JOIN ${s}.events e ON e.id = claimed.event_id
   LEFT JOIN ${s}.webhook_subscriptions w ON w.id = claimed.subscription_id`;

/**
 * Reads ahead without locking, picks the rows it wants and locks only those (SKIP LOCKED, each row
 * checked again under its lock). `wanted` comes back on every row, and on a row of its own when
 * nothing was claimed: fewer claimed than wanted means a concurrent claim took some first.
 */
const takeWanted = (read: ReadCandidates) =>
  textPerSchema((s) => {
    const d = `${s}.webhook_deliveries`;
    return `WITH RECURSIVE ${read(d, "")}, wanted AS (${fittingRows}), chosen AS (
       SELECT id FROM ${d}
       WHERE id = ANY (ARRAY(SELECT id FROM wanted)) AND ${dueAndFree}
       FOR UPDATE SKIP LOCKED
     ), ${leaseChosen(d)}
     SELECT (SELECT count(*) FROM wanted)::int AS wanted,
       ${withEventAndSubscription(s, "(VALUES (1)) AS one LEFT JOIN claimed ON true")}`;
  });

/**
 * Locks every row it reads (SKIP LOCKED in the scan itself), so it passes over rows other claims
 * hold and reads on to the next ones: a row taken by another claim is never one it wanted. Under a
 * cap, reading in due order, it also locks the rows it reads ahead and leaves, until the statement
 * ends (a concurrent scan of its own kind passes over those too).
 */
const scanLocking = (read: ReadCandidates) =>
  textPerSchema((s) => {
    const d = `${s}.webhook_deliveries`;
    return `WITH RECURSIVE ${read(d, "FOR UPDATE SKIP LOCKED")}, chosen AS (${fittingRows}), ${leaseChosen(d)}
     SELECT ${withEventAndSubscription(s, "claimed")}`;
  });

/** The two statements for each way of reading candidates. */
const statements = {
  inDueOrder: { takeWanted: takeWanted(candidates.inDueOrder), scanLocking: scanLocking(candidates.inDueOrder) },
  perSubscription: {
    takeWanted: takeWanted(candidates.perSubscription),
    scanLocking: scanLocking(candidates.perSubscription),
  },
};

/**
 * Claimed rows as deliveries with their event and subscription; the rows of one subscription share
 * the one record read off the first of them (see withEventAndSubscription).
 */
function toClaimed(rows: any[]): ClaimedDelivery[] {
  const subscriptions = new Map<string, ClaimedDelivery["subscription"]>();
  for (const row of rows)
    if (row.carries_subscription)
      subscriptions.set(
        row.subscription_id,
        row.claimed_subscription === null ? null : toSubscription(row.claimed_subscription),
      );
  return rows.map((row) => ({
    delivery: toDelivery(row),
    event: row.claimed_event === null ? null : toEvent(row.claimed_event),
    subscription: subscriptions.get(row.subscription_id) ?? null,
  }));
}

/**
 * Leases up to `limit` due deliveries to `workerId` (see `WebhookDeliveryRepository.claimDueDeliveries`),
 * in due order. Concurrent claimers never wait for each other nor take the same row, and the lease
 * makes a crashed worker's rows due again once it expires.
 *
 * First it locks only the rows it takes. Locking every row it read, four times the batch under the
 * default cap, cost a WAL record each to claim a subscription's last few free slots: about a quarter
 * of a backlog drain's WAL. When a concurrent claim took some of the rows it wanted, it claims the rest
 * with the scan that locks as it reads, which skips held rows itself, so a worker draining a backlog
 * beside another doesn't come back short and leave due rows to the next sweep. Contention is rare,
 * so the extra locks come only then.
 */
export async function claimDueDeliveries(
  q: Queryable,
  s: string,
  {
    now,
    limit,
    leaseUntil,
    workerId,
    cap,
  }: { now: string; limit: number; leaseUntil: string; workerId: string; cap?: PerSubscriptionCap },
): Promise<ClaimedDelivery[]> {
  const max = cap?.max ?? MAX_INT;
  /** One of the two statements for `batch` more rows, holding `held`, read the way `held` calls for. */
  const run = (statement: "takeWanted" | "scanLocking", batch: number, held: Readonly<Record<string, number>>) => {
    const perSubscription = Object.values(held).some((n) => n >= max);
    const read = perSubscription ? statements.perSubscription : statements.inDueOrder;
    // Under a cap, reading in due order reads past the batch; per subscription, each one's room
    // already bounds what it reads.
    const toRead = cap && !perSubscription ? batch * READ_AHEAD : batch;
    return q.query(read[statement](s), [
      now,
      Math.max(0, batch),
      leaseUntil,
      workerId,
      json(held),
      max,
      Math.max(0, toRead),
    ]);
  };
  const held = cap?.held ?? {};
  const first = await run("takeWanted", limit, held);
  const claimed = toClaimed(first.rows.filter((row: any) => row.id !== null));
  const wanted = Number(first.rows[0]?.wanted ?? 0);
  if (claimed.length < wanted) {
    const holding: Record<string, number> = { ...held };
    for (const { delivery } of claimed) holding[delivery.subscriptionId] = (holding[delivery.subscriptionId] ?? 0) + 1;
    claimed.push(...toClaimed((await run("scanLocking", limit - claimed.length, holding)).rows));
  }
  return claimed.sort((a, b) => dueOrder(a.delivery, b.delivery));
}
