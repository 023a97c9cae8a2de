import type { StorageRepositories } from "@vitrina/core";
import type { LeadRefusalRecord, WorkspaceLeadSummary } from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { iso, json, many, one } from "../rows.js";
import { toLeadSummary } from "./admin.js";
import { claimParameters, claimResult, toOutbound } from "./outbound.js";

const toRefusal = (r: any): LeadRefusalRecord => ({
  id: r.id,
  connectorId: r.connector_id,
  at: iso(r.at),
  code: r.code,
  fields: r.fields,
  skewMs: r.skew_ms === null ? null : Number(r.skew_ms),
  requestId: r.request_id,
  unrecordedBefore: Number(r.unrecorded_before),
});

const toWorkspaceLead = (r: any): WorkspaceLeadSummary => ({
  ...toLeadSummary(r),
  connectorId: r.connector_id,
  contactId: r.contact_id,
  opportunityId: r.opportunity_id,
  conversationId: r.conversation_id ?? null,
});

/** Refused leads per connector, the workspace-wide lead list, and retrying a failed first message. */
export function leadOperationRepositories(
  q: Queryable,
  s: string,
): Pick<StorageRepositories, "leadRefusals" | "workspaceLeads" | "firstMessageRetries"> {
  return {
    leadRefusals: {
      async record(refusal, keep) {
        // One statement: the counter row (created for a known connector only: the SELECT finds no
        // row for an unknown id, and then nothing is written) is the lock that serialises one
        // connector's writers, and its sequence picks the ring slot. The ring never grows past
        // `keep` rows, whatever the concurrency: the slot is the key.
        const result = await q.query(
          `WITH counter AS (
             INSERT INTO ${s}.lead_refusal_counters (connector_id, next_seq)
             SELECT id, 1 FROM ${s}.connectors WHERE id = $1
             ON CONFLICT (connector_id) DO UPDATE SET next_seq = ${s}.lead_refusal_counters.next_seq + 1
             RETURNING next_seq
           )
           INSERT INTO ${s}.lead_refusals
             (connector_id, slot, seq, id, at, code, fields, skew_ms, request_id, unrecorded_before)
           SELECT $1, (next_seq % $2)::int, next_seq, $3, $4, $5, $6::jsonb, $7, $8, $9 FROM counter
           ON CONFLICT (connector_id, slot) DO UPDATE SET
             seq = excluded.seq, id = excluded.id, at = excluded.at, code = excluded.code, fields = excluded.fields,
             skew_ms = excluded.skew_ms, request_id = excluded.request_id, unrecorded_before = excluded.unrecorded_before`,
          [
            refusal.connectorId,
            keep,
            refusal.id,
            refusal.at,
            refusal.code,
            json(refusal.fields),
            refusal.skewMs,
            refusal.requestId,
            refusal.unrecordedBefore,
          ],
        );
        return affected(result) > 0;
      },
      listByConnector: (connectorId, limit) =>
        many(
          q,
          `SELECT * FROM ${s}.lead_refusals WHERE connector_id = $1 ORDER BY seq DESC LIMIT $2`,
          [connectorId, limit],
          toRefusal,
        ),
      async purgeBefore(before, limit) {
        const result = await q.query(
          `DELETE FROM ${s}.lead_refusals WHERE (connector_id, slot) IN (
             SELECT connector_id, slot FROM ${s}.lead_refusals WHERE at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
          [before, limit],
        );
        return affected(result);
      },
    },
    workspaceLeads: {
      // Keyset on (received_at, id), newest first, as the connector's list; the filters are
      // appended as parameters, never as text.
      listPage(workspaceId, filter, page) {
        const params: unknown[] = [workspaceId, page.limit];
        const where: string[] = [];
        const param = (value: unknown) => `$${params.push(value)}`;
        if (page.startingAfter !== undefined)
          where.push(
            `(l.received_at, l.id) < (SELECT c.received_at, c.id FROM ${s}.lead_events c WHERE c.id = ${param(page.startingAfter)} AND c.workspace_id = $1)`,
          );
        if (filter.connectorId !== undefined) where.push(`l.connector_id = ${param(filter.connectorId)}`);
        if (filter.outboundStatus === "none") where.push(`o.id IS NULL`);
        else if (filter.outboundStatus !== undefined) where.push(`o.status = ${param(filter.outboundStatus)}`);
        if (filter.duplicate !== undefined) where.push(`${filter.duplicate ? "" : "NOT "}${earlierLead(s)}`);
        return many(
          q,
          `SELECT l.id, l.connector_id, l.contact_id, l.opportunity_id, l.received_at, l.source_lead_id,
                  l.qualification_rejected, o.status AS outbound_status, o.reason AS outbound_reason,
                  ${earlierLead(s)} AS duplicate,
                  (SELECT cv.id FROM ${s}.conversations cv WHERE cv.contact_id = l.contact_id
                   ORDER BY cv.updated_at DESC, cv.id DESC LIMIT 1) AS conversation_id
           FROM ${s}.lead_events l LEFT JOIN ${s}.outbound_messages o ON o.lead_event_id = l.id
           WHERE l.workspace_id = $1 ${where.map((w) => `AND ${w}`).join(" ")}
           ORDER BY l.received_at DESC, l.id DESC LIMIT $2`,
          params,
          toWorkspaceLead,
        );
      },
      firstMessageOf: (workspaceId, leadEventId) =>
        one(
          q,
          `SELECT * FROM ${s}.outbound_messages WHERE workspace_id = $1 AND lead_event_id = $2`,
          [workspaceId, leadEventId],
          toOutbound,
        ),
    },
    firstMessageRetries: {
      async claimFailed(message, phoneE164, change) {
        // As `outbound.claimForSending`: the contact CTE takes the row lock (waiting out an opt-out
        // being written, then reading its committed row) and the claim applies only when that row
        // passes. A concurrent retry of the same message re-checks `status = 'failed'` on the row
        // it waited for, and finds it `queued`: one of the two claims. The "already welcomed" check
        // reads the statement's snapshot, not the lock: a welcome another lead commits while this
        // waits is not seen (a second welcome, never a message to someone who said no).
        const { rows } = await q.query(
          `WITH contact AS (
             SELECT * FROM ${s}.contacts WHERE workspace_id = $1 AND id = $2 FOR UPDATE
           ), claimed AS (
             UPDATE ${s}.outbound_messages o SET status = 'queued', reason = $5, handed_to_provider_at = $6,
               updated_at = $7, provider_answered_at = NULL, provider_message_id = NULL
             FROM contact c
             WHERE o.id = $3 AND o.workspace_id = $1 AND o.status = 'failed'
               AND c.whatsapp_opted_out_at IS NULL AND c.phone_e164 = $4
               AND c.whatsapp_consent ->> 'granted' = 'true'
               AND NOT EXISTS (SELECT 1 FROM ${s}.outbound_messages other
                               WHERE other.contact_id = c.id AND other.id <> o.id AND other.status IN ('queued', 'sent'))
             RETURNING o.*
           )
           SELECT contact.*, (SELECT row_to_json(claimed) FROM claimed) AS claimed FROM contact`,
          claimParameters(message, phoneE164, change),
        );
        return claimResult(rows);
      },
    },
  };
}

/** Whether an earlier lead of the workspace brought the same contact (a repeat of one person). */
const earlierLead = (s: string) => `EXISTS (SELECT 1 FROM ${s}.lead_events p WHERE p.contact_id = l.contact_id
  AND p.workspace_id = l.workspace_id AND (p.received_at, p.id) < (l.received_at, l.id))`;
