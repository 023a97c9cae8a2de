import { dueOrder, type ClaimedDelivery, type PerSubscriptionCap } from "@vitrina/core/storage";
import type { Queryable } from "../driver.js";
import { toDelivery } from "./delivery-rows.js";
import { toEvent } from "./events.js";
import { toSubscription } from "./subscriptions.js";
import { json, textPerSchema } from "../rows.js";

const MAX_INT = 2 ** 31 - 1;

/** Under a cap, how far past the batch a claim reads, so one subscription's rows past its room don't crowd out another's. */
const READ_AHEAD = 4;

// Both statements share their parameters: $1 now, $2 the batch, $3 the lease's end, $4 the worker,
// $5 the rows held per subscription (jsonb), $6 the cap, $7 how many due rows to read.

/** Due rows of subscriptions below their cap, in due order. */
const dueRows = (d: string) =>
  `SELECT id, subscription_id, next_attempt_at FROM ${d}
   WHERE status = 'pending' AND next_attempt_at <= $1::timestamptz AND (lease_until IS NULL OR lease_until <= $1::timestamptz)
     AND coalesce(($5::jsonb ->> subscription_id)::int, 0) < $6
   ORDER BY next_attempt_at, id LIMIT $7`;

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
const takeWanted = textPerSchema((s) => {
  const d = `${s}.webhook_deliveries`;
  return `WITH candidates AS (${dueRows(d)}), wanted AS (${fittingRows}), chosen AS (
       SELECT id FROM ${d}
       WHERE id = ANY (ARRAY(SELECT id FROM wanted)) AND status = 'pending'
         AND next_attempt_at <= $1::timestamptz AND (lease_until IS NULL OR lease_until <= $1::timestamptz)
       FOR UPDATE SKIP LOCKED
     ), ${leaseChosen(d)}
     SELECT (SELECT count(*) FROM wanted)::int AS wanted,
       ${withEventAndSubscription(s, "(VALUES (1)) AS one LEFT JOIN claimed ON true")}`;
});

/**
 * Locks every row it reads (SKIP LOCKED in the scan itself), so it passes over rows other claims
 * hold and reads on to the next ones: a row taken by another claim is never one it wanted. Under a
 * cap it also locks the rows it reads ahead and leaves, until the statement ends (a concurrent scan
 * of its own kind passes over those too).
 */
const scanLocking = textPerSchema((s) => {
  const d = `${s}.webhook_deliveries`;
  return `WITH candidates AS (${dueRows(d)} FOR UPDATE SKIP LOCKED), chosen AS (${fittingRows}), ${leaseChosen(d)}
     SELECT ${withEventAndSubscription(s, "claimed")}`;
});

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
  const params = (batch: number, held: Readonly<Record<string, number>>) => [
    now,
    Math.max(0, batch),
    leaseUntil,
    workerId,
    json(held),
    cap?.max ?? MAX_INT,
    Math.max(0, cap ? batch * READ_AHEAD : batch),
  ];
  const first = await q.query(takeWanted(s), params(limit, cap?.held ?? {}));
  const claimed = toClaimed(first.rows.filter((row: any) => row.id !== null));
  const wanted = Number(first.rows[0]?.wanted ?? 0);
  if (claimed.length < wanted) {
    const held: Record<string, number> = { ...cap?.held };
    for (const { delivery } of claimed) held[delivery.subscriptionId] = (held[delivery.subscriptionId] ?? 0) + 1;
    const rest = await q.query(scanLocking(s), params(limit - claimed.length, held));
    claimed.push(...toClaimed(rest.rows));
  }
  return claimed.sort((a, b) => dueOrder(a.delivery, b.delivery));
}
