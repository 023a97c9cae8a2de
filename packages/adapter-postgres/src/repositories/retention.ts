import type { StorageRepositories } from "@vitrina/core";
import { affected, type Queryable } from "../driver.js";
import { json, num, one } from "../rows.js";

/** When a finished delivery finished: its success, or the last due time of a failed one (indexed). */
const FINISHED_AT = "coalesce(delivered_at, next_attempt_at)";

/**
 * Retention in short statements: each picks at most `limit` rows with `FOR UPDATE SKIP LOCKED`, so
 * it never waits for a row live work holds (a worker's claim, a resend) and holds its own locks
 * only for the one statement. FOR UPDATE also re-checks the row's current version, so a delivery
 * a resend just made pending again is left alone.
 */
export function retentionRepository(q: Queryable, s: string): Pick<StorageRepositories, "retention"> {
  const finishedDeliveries = `SELECT id FROM ${s}.webhook_deliveries WHERE status <> 'pending' AND ${FINISHED_AT} < $1`;
  const undeliveredEvents = (deliveryFilter: string) =>
    `SELECT e.id FROM ${s}.events e WHERE e.created < $1
       AND NOT EXISTS (SELECT 1 FROM ${s}.webhook_deliveries d WHERE d.event_id = e.id${deliveryFilter})`;
  const unredactedLeads = `SELECT id FROM ${s}.lead_events WHERE payload_redacted_at IS NULL AND received_at < $1`;
  const unredactedMessages = `SELECT id FROM ${s}.messages WHERE content_redacted_at IS NULL AND created_at < $1`;
  const count = async (text: string, params: unknown[]) =>
    (await one(q, `SELECT count(*) AS n FROM (${text}) x`, params, (r) => num(r.n))) ?? 0;

  return {
    retention: {
      async purgeFinishedDeliveries(before, limit) {
        // Attempts first, then their deliveries, in one statement over the same locked rows.
        const row = await one(
          q,
          `WITH doomed AS (${finishedDeliveries} ORDER BY ${FINISHED_AT}, id LIMIT $2 FOR UPDATE SKIP LOCKED),
             attempts AS (DELETE FROM ${s}.webhook_attempts WHERE delivery_id IN (SELECT id FROM doomed) RETURNING 1),
             deliveries AS (DELETE FROM ${s}.webhook_deliveries WHERE id IN (SELECT id FROM doomed) RETURNING 1)
           SELECT (SELECT count(*) FROM attempts) AS attempts, (SELECT count(*) FROM deliveries) AS deliveries`,
          [before, limit],
          (r) => ({ attempts: num(r.attempts), deliveries: num(r.deliveries) }),
        );
        return row ?? { attempts: 0, deliveries: 0 };
      },
      async purgeUndeliveredEvents(before, limit) {
        const result = await q.query(
          `DELETE FROM ${s}.events WHERE id IN (${undeliveredEvents("")} ORDER BY e.created LIMIT $2 FOR UPDATE OF e SKIP LOCKED)`,
          [before, limit],
        );
        return affected(result);
      },
      async redactLeadPayloads(before, limit, redactedAt) {
        const result = await q.query(
          `UPDATE ${s}.lead_events SET payload = $3::jsonb, payload_redacted_at = $4
           WHERE id IN (${unredactedLeads} ORDER BY received_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
          [before, limit, json({ redacted_at: redactedAt }), redactedAt],
        );
        return affected(result);
      },
      async redactMessageTexts(before, limit, redactedAt) {
        const result = await q.query(
          `UPDATE ${s}.messages SET content = '', details = NULL, content_redacted_at = $3
           WHERE id IN (${unredactedMessages} ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
          [before, limit, redactedAt],
        );
        return affected(result);
      },
      async countEligible({ deliveriesFinishedBefore: before, leadsReceivedBefore, messagesCreatedBefore }) {
        const counts = { attempts: 0, deliveries: 0, events: 0, leadPayloads: 0, messageTexts: 0 };
        if (before !== null) {
          counts.deliveries = await count(finishedDeliveries, [before]);
          counts.attempts = await count(
            `SELECT 1 FROM ${s}.webhook_attempts WHERE delivery_id IN (${finishedDeliveries})`,
            [before],
          );
          // Events whose every delivery is itself about to go.
          counts.events = await count(
            undeliveredEvents(" AND NOT (d.status <> 'pending' AND coalesce(d.delivered_at, d.next_attempt_at) < $1)"),
            [before],
          );
        }
        if (leadsReceivedBefore !== null) counts.leadPayloads = await count(unredactedLeads, [leadsReceivedBefore]);
        if (messagesCreatedBefore !== null)
          counts.messageTexts = await count(unredactedMessages, [messagesCreatedBefore]);
        return counts;
      },
    },
  };
}
