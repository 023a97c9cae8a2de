import type { StorageRepositories } from "@vitrina/core";
import type { ClaimedDelivery, WebhookDeliveryRecord } from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { toAttempt, toDelivery } from "./delivery-rows.js";
import { toEvent } from "./events.js";
import { toSubscription } from "./subscriptions.js";
import { iso, isoOrNull, json, many, num, one, placeholders } from "../rows.js";
import type { DeliveriesQueued } from "../notifications.js";

const MAX_INT = 2 ** 31 - 1;

const dueOrder = (a: WebhookDeliveryRecord, b: WebhookDeliveryRecord) =>
  a.nextAttemptAt < b.nextAttemptAt ? -1 : a.nextAttemptAt > b.nextAttemptAt ? 1 : a.id < b.id ? -1 : 1;

/** The delivery outbox: leased claims with `FOR UPDATE SKIP LOCKED`, attempts, history pages. */
export function deliveryRepositories(
  q: Queryable,
  s: string,
  queued: DeliveriesQueued,
): Pick<StorageRepositories, "webhookDeliveries" | "webhookAttempts"> {
  const d = `${s}.webhook_deliveries`;
  return {
    webhookDeliveries: {
      async insert(x) {
        await q.query(
          `INSERT INTO ${d} (id, workspace_id, subscription_id, event_id, event_type, status, attempt_count,
             attempts_before_resend, next_attempt_at, retry_until, lease_until, leased_by, last_error, created_at, delivered_at)
           VALUES (${placeholders(15)})`,
          [
            x.id,
            x.workspaceId,
            x.subscriptionId,
            x.eventId,
            x.eventType,
            x.status,
            x.attemptCount,
            x.attemptsBeforeResend,
            x.nextAttemptAt,
            x.retryUntil,
            x.leaseUntil,
            x.leasedBy,
            x.lastError,
            x.createdAt,
            x.deliveredAt,
          ],
        );
        queued();
      },
      get: (workspaceId, id) =>
        one(q, `SELECT * FROM ${d} WHERE workspace_id = $1 AND id = $2`, [workspaceId, id], toDelivery),
      async claimDueDeliveries(now, limit, leaseUntil, workerId, cap) {
        // SKIP LOCKED: concurrent claimers pass over each other's rows instead of waiting or
        // double-claiming; the lease makes a crashed worker's rows due again once it expires.
        // Under a cap, subscriptions already at it are passed over in the scan, and the window
        // keeps each other one to its room. The scan looks past `limit` so capped rows don't crowd
        // out the rest (the worker claims again while claims come back non-empty); the rows it
        // looked at and left stay locked only until this statement ends. Locking them in the scan,
        // not after, keeps a concurrent claimer skipping past them to rows further on. Each claimed
        // row comes back with its event and subscription as JSON (timestamps as ISO strings, which
        // the row mappers accept as well as Dates), so sending a batch needs no second read.
        const { rows } = await q.query(
          `WITH candidates AS (
             SELECT id, subscription_id, next_attempt_at FROM ${d}
             WHERE status = 'pending' AND next_attempt_at <= $1::timestamptz AND (lease_until IS NULL OR lease_until <= $1::timestamptz)
               AND coalesce(($5::jsonb ->> subscription_id)::int, 0) < $6
             ORDER BY next_attempt_at, id LIMIT $7 FOR UPDATE SKIP LOCKED
           ), chosen AS (
             SELECT id FROM (
               SELECT id, next_attempt_at, coalesce(($5::jsonb ->> subscription_id)::int, 0)
                 + row_number() OVER (PARTITION BY subscription_id ORDER BY next_attempt_at, id) AS slot
               FROM candidates) AS ranked
             WHERE slot <= $6 ORDER BY next_attempt_at, id LIMIT $2
           ), claimed AS (
             UPDATE ${d} AS d SET lease_until = $3, leased_by = $4 FROM chosen WHERE d.id = chosen.id RETURNING d.*
           )
           SELECT claimed.*, to_json(e) AS claimed_event, to_json(w) AS claimed_subscription FROM claimed
           LEFT JOIN ${s}.events e ON e.id = claimed.event_id
           LEFT JOIN ${s}.webhook_subscriptions w ON w.id = claimed.subscription_id`,
          [
            now,
            Math.max(0, limit),
            leaseUntil,
            workerId,
            json(cap?.held ?? {}),
            cap?.max ?? MAX_INT,
            Math.max(0, cap ? limit * 4 : limit),
          ],
        );
        return rows
          .map((row: any) => ({
            delivery: toDelivery(row),
            event: row.claimed_event === null ? null : toEvent(row.claimed_event),
            subscription: row.claimed_subscription === null ? null : toSubscription(row.claimed_subscription),
          }))
          .sort((a: ClaimedDelivery, b: ClaimedDelivery) => dueOrder(a.delivery, b.delivery));
      },
      async completeClaims(completions) {
        if (completions.length === 0) return [];
        // One statement for the whole batch, its rows passed as parallel arrays (one fixed text,
        // so it is prepared once whatever the batch size). Only rows still under the completion's
        // lease are updated (its worker and its lease_until: a worker whose completion stalled past
        // the lease may have claimed the row again), and an attempt is inserted only for an updated
        // row: a lost lease writes neither.
        const column = <T>(pick: (c: (typeof completions)[number]) => T) => completions.map(pick);
        const { rows } = await q.query(
          `WITH input AS (
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::timestamptz[], $6::text[],
               $7::timestamptz[], $8::text[], $9::int[], $10::timestamptz[], $11::int[], $12::float8[], $13::text[], $14::text[],
               $15::timestamptz[])
             AS x(id, worker_id, status, attempt_count, next_attempt_at, last_error, delivered_at,
               attempt_id, number, attempted_at, status_code, duration_ms, error, response_body_prefix, lease_until)
           ), completed AS (
             UPDATE ${d} AS d SET status = input.status, attempt_count = input.attempt_count,
               next_attempt_at = input.next_attempt_at, last_error = input.last_error, delivered_at = input.delivered_at,
               lease_until = NULL, leased_by = NULL
             FROM input WHERE d.id = input.id AND d.leased_by = input.worker_id AND d.lease_until = input.lease_until
             RETURNING d.id
           ), attempt AS (
             INSERT INTO ${s}.webhook_attempts (id, delivery_id, number, attempted_at, status_code, duration_ms, error, response_body_prefix)
             SELECT input.attempt_id, input.id, input.number, input.attempted_at, input.status_code, input.duration_ms,
               input.error, input.response_body_prefix
             FROM input JOIN completed ON completed.id = input.id WHERE input.attempt_id IS NOT NULL
           )
           SELECT id FROM completed`,
          [
            column((c) => c.deliveryId),
            column((c) => c.workerId),
            column((c) => c.outcome.status),
            column((c) => c.outcome.attemptCount),
            column((c) => c.outcome.nextAttemptAt),
            column((c) => c.outcome.lastError),
            column((c) => c.outcome.deliveredAt),
            column((c) => c.attempt?.id ?? null),
            column((c) => c.attempt?.number ?? null),
            column((c) => c.attempt?.attemptedAt ?? null),
            column((c) => c.attempt?.statusCode ?? null),
            column((c) => c.attempt?.durationMs ?? null),
            column((c) => c.attempt?.error ?? null),
            column((c) => c.attempt?.responseBodyPrefix ?? null),
            column((c) => c.leaseUntil),
          ],
        );
        const recorded = new Set(rows.map((r: { id: string }) => r.id));
        return completions.map((c) => recorded.has(c.deliveryId));
      },
      async reschedule(workspaceId, id, now, retryUntil) {
        // A fresh retry cycle: `attempt_count` on the right of SET is the row as this UPDATE locked it
        // (re-read after any concurrent write it waited for). A late completion that commits first is
        // counted; one after it finds its lease cleared and writes nothing (resend.concurrency test).
        // A row under a live lease (an attempt in flight) is not touched at all.
        const rescheduled = await one(
          q,
          `UPDATE ${d} SET status = 'pending', next_attempt_at = $3, retry_until = $4, lease_until = NULL, leased_by = NULL,
             attempts_before_resend = attempt_count
           WHERE workspace_id = $1 AND id = $2 AND (lease_until IS NULL OR lease_until <= $3::timestamptz) RETURNING *`,
          [workspaceId, id, now, retryUntil],
          toDelivery,
        );
        if (rescheduled !== null) queued();
        return rescheduled;
      },
      async outboxStats(now) {
        // One pass over the pending rows only, which the partial index on them finds.
        const stats = await one(
          q,
          `SELECT count(*) AS pending, min(next_attempt_at) FILTER (WHERE next_attempt_at <= $1::timestamptz) AS oldest_due
           FROM ${d} WHERE status = 'pending'`,
          [now],
          (r: any) => ({ pending: num(r.pending), oldestDueAt: isoOrNull(r.oldest_due) }),
        );
        return stats ?? { pending: 0, oldestDueAt: null };
      },
      listBySubscription: (subscriptionId, options) =>
        // An unknown cursor makes the row comparison NULL: an empty page, like the memory adapter.
        many(
          q,
          `SELECT * FROM ${d} WHERE subscription_id = $1
             AND ($3::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM ${d} WHERE id = $3 AND subscription_id = $1))
           ORDER BY created_at DESC, id DESC LIMIT $2`,
          [subscriptionId, Math.max(0, options.limit), options.startingAfter ?? null],
          toDelivery,
        ),
    },
    webhookAttempts: {
      async insert(a) {
        await q.query(
          `INSERT INTO ${s}.webhook_attempts (id, delivery_id, number, attempted_at, status_code, duration_ms, error, response_body_prefix) VALUES (${placeholders(8)})`,
          [
            a.id,
            a.deliveryId,
            a.number,
            a.attemptedAt,
            a.statusCode,
            a.durationMs,
            a.error,
            a.responseBodyPrefix ?? null,
          ],
        );
      },
      listByDeliveries: (deliveryIds) =>
        many(
          q,
          `SELECT * FROM ${s}.webhook_attempts WHERE delivery_id IN (SELECT jsonb_array_elements_text($1::jsonb))
           ORDER BY delivery_id, number`,
          [json(deliveryIds)],
          toAttempt,
        ),
    },
  };
}
