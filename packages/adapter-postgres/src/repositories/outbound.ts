import type { OutboundMessageRecord, StorageRepositories } from "@vitrina/core";
import type { ClaimForSendingResult, HandOver } from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { iso, isoOrNull, many, one, placeholders } from "../rows.js";
import { recordOutcomeInThread, recordOutcomeOnly } from "./first-message-outcome.js";
import { toContact } from "./contacts.js";
import { deliveryField, joinDelivery } from "./whatsapp.js";
import type { DeliveriesQueued } from "../notifications.js";

export const toOutbound = (r: any): OutboundMessageRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  leadEventId: r.lead_event_id,
  contactId: r.contact_id,
  channel: r.channel,
  status: r.status,
  reason: r.reason,
  providerMessageId: r.provider_message_id,
  handedToProviderAt: isoOrNull(r.handed_to_provider_at),
  providerAnsweredAt: isoOrNull(r.provider_answered_at),
  ...deliveryField(r),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** The parameters of a claim under the contact's lock ($1 to $7), shared by `claimForSending` and the retry's claim. */
export const claimParameters = (
  message: Pick<OutboundMessageRecord, "id" | "workspaceId" | "contactId">,
  phoneE164: string,
  change: HandOver,
) => [
  message.workspaceId,
  message.contactId,
  message.id,
  phoneE164,
  change.reason,
  change.handedToProviderAt,
  change.updatedAt,
];

/** A claim's answer: the contact read under its lock, and the claimed message (null when refused). */
export function claimResult(rows: any[]): ClaimForSendingResult {
  const row = rows[0];
  if (row === undefined) return { contact: null, claimed: null };
  return { contact: toContact(row), claimed: row.claimed === null ? null : toOutbound(row.claimed) };
}

export const outboundValues = (m: OutboundMessageRecord) => [
  m.id,
  m.workspaceId,
  m.leadEventId,
  m.contactId,
  m.channel,
  m.status,
  m.reason,
  m.providerMessageId,
  m.handedToProviderAt,
  m.providerAnsweredAt,
  m.createdAt,
  m.updatedAt,
];

/** First messages of leads, and the send lease's compare-and-set updates. */
export function outboundRepository(
  q: Queryable,
  s: string,
  queued: DeliveriesQueued,
): Pick<StorageRepositories, "outbound"> {
  return {
    outbound: {
      async insert(m) {
        await q.query(
          `INSERT INTO ${s}.outbound_messages (id, workspace_id, lead_event_id, contact_id, channel, status, reason, provider_message_id,
             handed_to_provider_at, provider_answered_at, created_at, updated_at)
           VALUES (${placeholders(12)})`,
          outboundValues(m),
        );
      },
      findByLeadEvent: (leadEventId) =>
        one(
          q,
          `SELECT o.*, row_to_json(d) AS delivery FROM ${s}.outbound_messages o ${joinDelivery(s, "o")} WHERE o.lead_event_id = $1`,
          [leadEventId],
          toOutbound,
        ),
      recordOutcome: (outcome, thread) =>
        thread === undefined ? recordOutcomeOnly(q, s, outcome) : recordOutcomeInThread(q, s, queued, outcome, thread),
      listByWorkspace: (workspaceId) =>
        many(
          q,
          `SELECT o.*, row_to_json(d) AS delivery FROM ${s}.outbound_messages o ${joinDelivery(s, "o")}
           WHERE o.workspace_id = $1 ORDER BY o.created_at, o.id`,
          [workspaceId],
          toOutbound,
        ),
      findLatestLiveByContact: (workspaceId, contactId, since) =>
        one(
          q,
          `SELECT * FROM ${s}.outbound_messages WHERE workspace_id = $1 AND contact_id = $2 AND status IN ('queued', 'sent') AND created_at >= $3
           ORDER BY created_at DESC, id DESC LIMIT 1`,
          [workspaceId, contactId, since],
          toOutbound,
        ),
      // One UPDATE whose WHERE is the claim: a concurrent claimer blocks on the row lock, then
      // re-evaluates the WHERE against the committed row and updates nothing.
      claimUnsent: (id, change) =>
        one(
          q,
          `UPDATE ${s}.outbound_messages SET status = $2, reason = $3, handed_to_provider_at = $4, updated_at = $5
           WHERE id = $1 AND status = 'queued' AND handed_to_provider_at IS NULL RETURNING *`,
          [id, change.status, change.reason, change.handedToProviderAt, change.updatedAt],
          toOutbound,
        ),
      async claimForSending(message, phoneE164, change) {
        // One statement instead of BEGIN, SELECT … FOR UPDATE, UPDATE, COMMIT: the contact CTE
        // takes the row lock (waiting out a concurrent opt-out, then reading its committed row),
        // and the claim applies only when that row passes the check. Data-modifying CTEs run
        // whether or not the outer query reads them, and the statement is its own transaction.
        // Consent is checked on that locked row too: a later lead withdrawing it (`granted: false`)
        // that commits while the claim waits is seen, never a snapshot from before it.
        const { rows } = await q.query(
          `WITH contact AS (
             SELECT * FROM ${s}.contacts WHERE workspace_id = $1 AND id = $2 FOR UPDATE
           ), claimed AS (
             UPDATE ${s}.outbound_messages o SET status = 'queued', reason = $5, handed_to_provider_at = $6, updated_at = $7
             FROM contact c
             WHERE o.id = $3 AND o.status = 'queued' AND o.handed_to_provider_at IS NULL
               AND c.whatsapp_opted_out_at IS NULL AND c.phone_e164 = $4
               AND c.whatsapp_consent ->> 'granted' = 'true'
             RETURNING o.*
           )
           SELECT contact.*, (SELECT row_to_json(claimed) FROM claimed) AS claimed FROM contact`,
          claimParameters(message, phoneE164, change),
        );
        return claimResult(rows);
      },
      async failInFlight(id, reason, at) {
        const result = await q.query(
          `UPDATE ${s}.outbound_messages SET status = 'failed', reason = $2, updated_at = $3
           WHERE id = $1 AND status = 'queued' AND handed_to_provider_at IS NOT NULL AND provider_answered_at IS NULL`,
          [id, reason, at],
        );
        return affected(result) > 0;
      },
      listUnsettled: (before, limit) =>
        many(
          q,
          `SELECT * FROM ${s}.outbound_messages
           WHERE status = 'queued' AND provider_answered_at IS NULL AND coalesce(handed_to_provider_at, created_at) <= $1
           ORDER BY coalesce(handed_to_provider_at, created_at), id LIMIT $2`,
          [before, limit],
          toOutbound,
        ),
    },
  };
}
