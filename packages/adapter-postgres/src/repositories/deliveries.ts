import type { StorageRepositories } from "@vitrina/core";
import type { WebhookDeliveryRecord } from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { claimDueDeliveries } from "./delivery-claims.js";
import { toAttempt, toDelivery } from "./delivery-rows.js";
import { iso, isoOrNull, json, many, num, one, placeholders } from "../rows.js";
import type { DeliveriesQueued } from "../notifications.js";

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
      claimDueDeliveries: (now, limit, leaseUntil, workerId, cap) =>
        claimDueDeliveries(q, s, { now, limit, leaseUntil, workerId, ...(cap && { cap }) }),
      async completeClaims(completions) {
        if (completions.length === 0) return [];
        // One statement for the whole batch, its rows passed as parallel arrays (one fixed text,
        // so it is prepared once whatever the batch size), the attempts' request headers as one
        // JSON array: as a jsonb[] each object's JSON was escaped again into the array's text,
        // which cost pg more than all the other columns. Only rows still under the completion's
        // lease are updated (its worker and its lease_until: a worker whose completion stalled past
        // the lease may have claimed the row again), and an attempt is inserted only for an updated
        // row: a lost lease writes neither.
        const column = <T>(pick: (c: (typeof completions)[number]) => T) => completions.map(pick);
        const { rows } = await q.query(
          `WITH input AS (
             SELECT x.*, nullif($16::jsonb -> (x.position::int - 1), 'null') AS request_headers
             FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::timestamptz[], $6::text[],
               $7::timestamptz[], $8::text[], $9::int[], $10::timestamptz[], $11::int[], $12::float8[], $13::text[], $14::text[],
               $15::timestamptz[]) WITH ORDINALITY
             AS x(id, worker_id, status, attempt_count, next_attempt_at, last_error, delivered_at,
               attempt_id, number, attempted_at, status_code, duration_ms, error, response_body_prefix, lease_until, position)
           ), completed AS (
             UPDATE ${d} AS d SET status = input.status, attempt_count = input.attempt_count,
               next_attempt_at = input.next_attempt_at, last_error = input.last_error, delivered_at = input.delivered_at,
               lease_until = NULL, leased_by = NULL
             FROM input WHERE d.id = input.id AND d.leased_by = input.worker_id AND d.lease_until = input.lease_until
             RETURNING d.id, d.subscription_id
           ), attempt AS (
             INSERT INTO ${s}.webhook_attempts (id, delivery_id, number, attempted_at, status_code, duration_ms, error,
               response_body_prefix, request_headers)
             SELECT input.attempt_id, input.id, input.number, input.attempted_at, input.status_code, input.duration_ms,
               input.error, input.response_body_prefix, input.request_headers
             FROM input JOIN completed ON completed.id = input.id WHERE input.attempt_id IS NOT NULL
           ), batch AS (
             SELECT completed.subscription_id, input.attempted_at AS at, input.status_code, input.error
             FROM input JOIN completed ON completed.id = input.id WHERE input.attempt_id IS NOT NULL
           ), health AS (
             -- Per subscription: the batch's newest attempt, and its first failure after its last success.
             SELECT b.subscription_id, max(b.at) AS last_at,
               (array_agg(b.status_code ORDER BY b.at DESC))[1] AS last_code,
               (array_agg(b.error ORDER BY b.at DESC))[1] AS last_error,
               bool_or(b.error IS NULL) AS any_ok,
               min(b.at) FILTER (WHERE b.error IS NOT NULL AND b.at > coalesce(ok.last_ok, '-infinity')) AS fail_from
             FROM batch b LEFT JOIN (SELECT subscription_id, max(at) AS last_ok FROM batch WHERE error IS NULL GROUP BY 1) ok
               USING (subscription_id)
             GROUP BY b.subscription_id
           ), locked AS (
             -- In id order: two batches sharing subscriptions take their locks in the same order (no deadlock).
             SELECT w.id FROM ${s}.webhook_subscriptions w JOIN health h ON h.subscription_id = w.id ORDER BY w.id FOR UPDATE OF w
           ), healthy AS (
             UPDATE ${s}.webhook_subscriptions AS w SET last_attempt_at = h.last_at, last_attempt_status_code = h.last_code,
               last_attempt_error = h.last_error,
               failing_since = CASE WHEN h.last_error IS NULL THEN NULL WHEN h.any_ok THEN h.fail_from
                 ELSE coalesce(w.failing_since, h.fail_from) END
             FROM health h JOIN locked ON locked.id = h.subscription_id
             WHERE w.id = h.subscription_id AND (w.last_attempt_at IS NULL OR w.last_attempt_at <= h.last_at)
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
            json(column((c) => c.attempt?.requestHeaders ?? null)),
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
      async listBySubscription(subscriptionId, options) {
        // An unknown cursor makes the row comparison NULL: an empty page, like the memory adapter.
        // The page above a cursor is read oldest first from it (the rows nearest to it), then turned.
        const before = options.startingAfter === undefined && options.endingBefore !== undefined;
        const rows = await many(
          q,
          `SELECT * FROM ${d} WHERE subscription_id = $1
             AND ($3::text IS NULL OR (created_at, id) ${before ? ">" : "<"} (SELECT created_at, id FROM ${d} WHERE id = $3 AND subscription_id = $1))
             AND ($4::text IS NULL OR status = $4) AND ($5::text IS NULL OR event_type = $5) AND ($6::text IS NULL OR event_id = $6)
           ORDER BY created_at ${before ? "ASC" : "DESC"}, id ${before ? "ASC" : "DESC"} LIMIT $2`,
          [
            subscriptionId,
            Math.max(0, options.limit),
            (before ? options.endingBefore : options.startingAfter) ?? null,
            options.status ?? null,
            options.eventType ?? null,
            options.eventId ?? null,
          ],
          toDelivery,
        );
        return before ? rows.reverse() : rows;
      },
      async requeueFailed(workspaceId, subscriptionId, { since, limit, now, retryUntil }) {
        // SKIP LOCKED: a concurrent recovery passes over the rows this one holds instead of waiting
        // and requeueing them after; the UPDATE re-checks status = 'failed' on the row it locked, so
        // a row requeued (or claimed) by another call since the scan is left alone. One extra row
        // is scanned to tell whether more remain; it is locked until the statement ends, never written.
        const { rows } = await q.query(
          `WITH picked AS (
             SELECT id, created_at FROM ${d} WHERE workspace_id = $1 AND subscription_id = $2 AND status = 'failed'
               AND created_at >= $3::timestamptz
             ORDER BY created_at, id LIMIT $4 + 1 FOR UPDATE SKIP LOCKED
           ), chosen AS (SELECT id FROM picked ORDER BY created_at, id LIMIT $4
           ), requeued AS (
             UPDATE ${d} AS d SET status = 'pending', next_attempt_at = $5, retry_until = $6, lease_until = NULL,
               leased_by = NULL, attempts_before_resend = attempt_count
             FROM chosen WHERE d.id = chosen.id AND d.status = 'failed' RETURNING d.*
           )
           SELECT requeued.*, (SELECT count(*) FROM picked) > $4 AS more FROM (SELECT 1) AS one LEFT JOIN requeued ON true`,
          [workspaceId, subscriptionId, since, Math.max(0, limit), now, retryUntil],
        );
        const found = rows.filter((r: any) => r.id !== null);
        if (found.length > 0) queued();
        const requeued = found
          .map(toDelivery)
          .sort((a: WebhookDeliveryRecord, b: WebhookDeliveryRecord) =>
            a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1,
          );
        return { requeued, more: rows.some((r: any) => r.more === true) };
      },
      attemptCounts: (workspaceId, subscriptionIds, since) =>
        // Every attempt's delivery has coalesce(delivered_at, next_attempt_at) at or after it (a
        // success stamps delivered_at, a failure moves next_attempt_at to its time or later), so the
        // first condition only narrows the scan; the attempts' own time decides.
        many(
          q,
          `SELECT d.subscription_id, count(*) AS attempts, count(*) FILTER (WHERE a.error IS NULL) AS succeeded
           FROM ${d} d JOIN ${s}.webhook_attempts a ON a.delivery_id = d.id
           WHERE d.workspace_id = $1 AND d.subscription_id IN (SELECT jsonb_array_elements_text($2::jsonb))
             AND coalesce(d.delivered_at, d.next_attempt_at) >= $3::timestamptz AND a.attempted_at >= $3::timestamptz
           GROUP BY d.subscription_id`,
          [workspaceId, json(subscriptionIds), since],
          (r: any) => ({ subscriptionId: r.subscription_id, attempts: num(r.attempts), succeeded: num(r.succeeded) }),
        ),
    },
    webhookAttempts: {
      async insert(a) {
        await q.query(
          `INSERT INTO ${s}.webhook_attempts (id, delivery_id, number, attempted_at, status_code, duration_ms, error, response_body_prefix, request_headers) VALUES (${placeholders(9)})`,
          [
            a.id,
            a.deliveryId,
            a.number,
            a.attemptedAt,
            a.statusCode,
            a.durationMs,
            a.error,
            a.responseBodyPrefix ?? null,
            a.requestHeaders ? json(a.requestHeaders) : null,
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
