import type { EventRecord, StorageRepositories } from "@vitrina/core";
import type { Queryable } from "../driver.js";
import { iso, json, many, one, placeholders } from "../rows.js";
import type { DeliveriesQueued } from "../notifications.js";
import { toDelivery } from "./delivery-rows.js";

export const toEvent = (r: any): EventRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  type: r.type,
  created: iso(r.created),
  data: r.data,
});

/**
 * The two CTEs of a fan-out, for every statement that appends an event: `subscriber`, the
 * workspace's enabled subscriptions that chose the type (as listEnabledForEvent reads them), and
 * `delivery`, one pending delivery each, due at once (the record `fannedOutDelivery` describes).
 * Delivery ids come from gen_random_uuid, since a single statement can't ask the caller for them.
 * The arguments are SQL expressions (parameters); `when` limits the fan-out further, e.g. to
 * "the event was written".
 */
export function fanOutCtes(
  s: string,
  p: { eventId: string; workspaceId: string; type: string; created: string; retryUntil: string; when?: string },
): string {
  return `subscriber AS (
     SELECT id, created_at FROM ${s}.webhook_subscriptions
     WHERE workspace_id = ${p.workspaceId} AND enabled AND events ? ${p.type}${p.when === undefined ? "" : ` AND ${p.when}`}
   ), delivery AS (
     INSERT INTO ${s}.webhook_deliveries (id, workspace_id, subscription_id, event_id, event_type, status,
       attempt_count, next_attempt_at, retry_until, lease_until, leased_by, last_error, created_at, delivered_at)
     SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), ${p.workspaceId}, id, ${p.eventId}, ${p.type}, 'pending',
       0, ${p.created}, ${p.retryUntil}, NULL, NULL, NULL, ${p.created}, NULL
     FROM subscriber
     RETURNING *
   )`;
}

/** The outbox's source: domain events, appended with their deliveries in one statement. */
export function eventRepositories(
  q: Queryable,
  s: string,
  queued: DeliveriesQueued,
): Pick<StorageRepositories, "events"> {
  return {
    events: {
      async append(e) {
        await q.query(`INSERT INTO ${s}.events (id, workspace_id, type, created, data) VALUES (${placeholders(5)})`, [
          e.id,
          e.workspaceId,
          e.type,
          e.created,
          json(e.data),
        ]);
      },
      async appendAndFanOut(e, { retryUntil }) {
        // One round trip for the event and all its deliveries: both INSERTs run as data-modifying
        // CTEs (always, to completion, in this statement's transaction). Workers elsewhere are told
        // once it commits, and only when a delivery was written (see DeliveriesQueued).
        const deliveries = await many(
          q,
          `WITH event AS (
             INSERT INTO ${s}.events (id, workspace_id, type, created, data) VALUES (${placeholders(5)})
           ), ${fanOutCtes(s, { eventId: "$1", workspaceId: "$2", type: "$3", created: "$4", retryUntil: "$6" })}
           SELECT delivery.* FROM delivery JOIN subscriber ON subscriber.id = delivery.subscription_id
           ORDER BY subscriber.created_at, subscriber.id`,
          [e.id, e.workspaceId, e.type, e.created, json(e.data), retryUntil],
          toDelivery,
        );
        if (deliveries.length > 0) queued();
        return deliveries;
      },
      get: (id) => one(q, `SELECT * FROM ${s}.events WHERE id = $1`, [id], toEvent),
      listByWorkspace: (workspaceId, options = {}) =>
        many(
          q,
          `SELECT * FROM ${s}.events WHERE workspace_id = $1 AND ($2::text IS NULL OR type = $2) ORDER BY created, id`,
          [workspaceId, options.type ?? null],
          toEvent,
        ),
    },
  };
}
