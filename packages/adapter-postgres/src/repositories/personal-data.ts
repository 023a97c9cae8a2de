import type { StorageRepositories } from "@vitrina/core";
import { noErasureCounts } from "@vitrina/core/storage";
import type { ErasureCounts, ErasureRecord, PersonalDataKind, SuppressionEntry } from "@vitrina/core/storage";
import type { Queryable } from "../driver.js";
import { iso, isoOrNull, json, many, num, one } from "../rows.js";
import { toContact } from "./contacts.js";
import { toConversation, toMessage } from "./conversations.js";
import { toEvent } from "./events.js";
import { toLead, toOpportunity } from "./leads.js";
import { toOutbound } from "./outbound.js";
import { joinDelivery, toEntry } from "./whatsapp.js";

/**
 * Each kind's page: its table (aliased `t`), the time column it is ordered by, how its rows name the
 * contact, and its row mapper. $1 workspace, $2 contact, $3/$4 the cursor (null: first page), $5 limit.
 */
const KINDS: Record<
  Exclude<PersonalDataKind, "messages">,
  { from: (s: string) => string; at: string; where: string; map: (r: any) => any }
> = {
  leads: { from: (s) => `${s}.lead_events t`, at: "t.received_at", where: "t.contact_id = $2", map: toLead },
  opportunities: {
    from: (s) => `${s}.opportunities t`,
    at: "t.created_at",
    where: "t.contact_id = $2",
    map: toOpportunity,
  },
  outbound: {
    from: (s) => `${s}.outbound_messages t ${joinDelivery(s, "t")}`,
    at: "t.created_at",
    where: "t.contact_id = $2",
    map: toOutbound,
  },
  conversations: {
    from: (s) => `${s}.conversations t`,
    at: "t.created_at",
    where: "t.contact_id = $2",
    map: toConversation,
  },
  consent: { from: (s) => `${s}.consent_ledger t`, at: "t.recorded_at", where: "t.contact_id = $2", map: toEntry },
  // Matches events_contact_idx (workspace_id, (data->>'contact_id'), created, id).
  events: { from: (s) => `${s}.events t`, at: "t.created", where: "t.data->>'contact_id' = $2", map: toEvent },
};

const after = (at: string) => `($3::timestamptz IS NULL OR (${at}, t.id) > ($3::timestamptz, $4::text))`;

const pageText = (s: string, kind: PersonalDataKind) => {
  if (kind === "messages") return messagesPageText(s);
  const { from, at, where } = KINDS[kind];
  const delivery = kind === "outbound" ? ", row_to_json(d) AS delivery" : "";
  return `SELECT t.*${delivery} FROM ${from(s)}
    WHERE t.workspace_id = $1 AND ${where} AND ${after(at)}
    ORDER BY ${at}, t.id LIMIT $5`;
};

/**
 * The contact's messages across their conversations: at most a page from each conversation (an
 * index scan of messages_conversation_idx starting at the cursor), then the page of them all.
 * Filtering all the contact's messages and sorting them made every page cost the whole history:
 * 20 s to export 100,000 messages.
 */
const messagesPageText = (s: string) => `SELECT m.*, row_to_json(d) AS delivery
  FROM ${s}.conversations c
  CROSS JOIN LATERAL (
    SELECT t.* FROM ${s}.messages t
    WHERE t.conversation_id = c.id AND t.workspace_id = $1 AND ${after("t.created_at")}
    ORDER BY t.created_at, t.id LIMIT $5
  ) m
  ${joinDelivery(s, "m")}
  WHERE c.workspace_id = $1 AND c.contact_id = $2
  ORDER BY m.created_at, m.id LIMIT $5`;

const toSuppression = (r: any): SuppressionEntry => ({
  workspaceId: r.workspace_id,
  phoneHash: r.phone_hash,
  userIdHash: r.user_id_hash,
  optedOutAt: iso(r.opted_out_at),
  createdAt: iso(r.created_at),
});

const toErasure = (r: any): ErasureRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  contactId: r.contact_id,
  requestedBy: r.requested_by,
  erasedAt: iso(r.erased_at),
  counts: r.counts,
});

/**
 * The erasure's statements after the contact is locked, in an order where nothing a later one needs
 * to find is gone yet: provider ids are read (for delivery reports) before they are cleared, events
 * are found by `data->>'contact_id'` in the same statement that blanks their data. $1 workspace,
 * $2 contact, $3 the erasure's time (`usesAt`), $4 the redacted JSON (`fourth`).
 */
const erasureSteps = (
  s: string,
): Array<{ kind: keyof ErasureCounts | "events+"; text: string; fourth?: (at: string) => string; usesAt?: true }> => [
  {
    kind: "deliveryReports",
    text: `DELETE FROM ${s}.delivery_reports WHERE workspace_id = $1 AND provider_message_id IN (
             SELECT m.provider_message_id FROM ${s}.messages m JOIN ${s}.conversations c ON c.id = m.conversation_id
             WHERE c.workspace_id = $1 AND c.contact_id = $2 AND m.provider_message_id IS NOT NULL
             UNION SELECT provider_message_id FROM ${s}.outbound_messages
             WHERE workspace_id = $1 AND contact_id = $2 AND provider_message_id IS NOT NULL)`,
  },
  {
    kind: "messages",
    usesAt: true,
    text: `UPDATE ${s}.messages m SET content = '', details = NULL, reply_to = NULL, provider_message_id = NULL,
             content_redacted_at = coalesce(m.content_redacted_at, $3)
           FROM ${s}.conversations c WHERE c.id = m.conversation_id AND c.workspace_id = $1 AND c.contact_id = $2`,
  },
  {
    kind: "outbound",
    text: `UPDATE ${s}.outbound_messages SET provider_message_id = NULL WHERE workspace_id = $1 AND contact_id = $2`,
  },
  {
    // The CRM's lead id is a way back to the person: it becomes the lead's own id, still unique.
    kind: "leads",
    usesAt: true,
    fourth: (at) => json({ redacted_at: at }),
    text: `UPDATE ${s}.lead_events SET payload = $4::jsonb, payload_redacted_at = coalesce(payload_redacted_at, $3),
             source_lead_id = 'erased:' || id, qualification_rejected = '[]'
           WHERE workspace_id = $1 AND contact_id = $2`,
  },
  {
    kind: "opportunities",
    text: `UPDATE ${s}.opportunities SET landing_page = NULL, qualification = '[]', attribution = NULL
           WHERE workspace_id = $1 AND contact_id = $2`,
  },
  {
    kind: "consent",
    text: `UPDATE ${s}.consent_ledger SET evidence = '{}', dedupe_key = NULL WHERE workspace_id = $1 AND contact_id = $2`,
  },
  {
    // One statement, one snapshot: the events are found before their data is blanked. A pending
    // delivery is cancelled (failed, finished now, its lease dropped so no worker's completion lands);
    // the others and every attempt lose what a receiver answered.
    kind: "events+",
    usesAt: true,
    fourth: (at) => json({ erased_at: at }),
    text: `WITH ev AS (SELECT id FROM ${s}.events WHERE workspace_id = $1 AND (data->>'contact_id' = $2
               OR (type = 'agent.run.completed' AND strpos(data::text, to_jsonb($2::text)::text) > 0)) FOR UPDATE),
             dl AS (SELECT id, status FROM ${s}.webhook_deliveries WHERE event_id IN (SELECT id FROM ev) FOR UPDATE),
             cancelled AS (UPDATE ${s}.webhook_deliveries SET status = 'failed', last_error = 'contact erased',
                             next_attempt_at = $3, lease_until = NULL, leased_by = NULL
                           WHERE id IN (SELECT id FROM dl WHERE status = 'pending') RETURNING 1),
             cleared AS (UPDATE ${s}.webhook_deliveries SET last_error = NULL
                         WHERE id IN (SELECT id FROM dl WHERE status <> 'pending') RETURNING 1),
             attempts AS (UPDATE ${s}.webhook_attempts SET response_body_prefix = NULL, error = NULL
                          WHERE delivery_id IN (SELECT id FROM dl) RETURNING 1),
             events AS (UPDATE ${s}.events SET data = $4::jsonb WHERE id IN (SELECT id FROM ev) RETURNING 1)
           SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM cancelled) AS cancelled,
             (SELECT count(*) FROM attempts) AS attempts, (SELECT count(*) FROM cleared) AS cleared`,
  },
  {
    // A capability's input names the contact by id somewhere in the trace: the id as a JSON string,
    // found in the JSON's text. Each entry keeps which capability ran, when and how it ended.
    kind: "agentRuns",
    text: `UPDATE ${s}.agent_runs SET trace = (
             SELECT coalesce(jsonb_agg((e - 'input' - 'output' - 'error') || '{"input":null}'::jsonb ORDER BY n), '[]')
             FROM jsonb_array_elements(trace) WITH ORDINALITY AS x(e, n))
           WHERE workspace_id = $1 AND strpos(trace::text, to_jsonb($2::text)::text) > 0`,
  },
  {
    kind: "tasks",
    text: `UPDATE ${s}.tasks SET input = '{}' WHERE workspace_id = $1 AND strpos(input::text, to_jsonb($2::text)::text) > 0`,
  },
  {
    kind: "contacts",
    text: `UPDATE ${s}.contacts SET possible_duplicate_of = NULL WHERE workspace_id = $1 AND possible_duplicate_of = $2`,
  },
];

export function personalDataRepository(q: Queryable, s: string): Pick<StorageRepositories, "personalData"> {
  return {
    personalData: {
      exportPage: (workspaceId, contactId, kind, cursor, limit) =>
        many(
          q,
          pageText(s, kind),
          [workspaceId, contactId, cursor?.at ?? null, cursor?.id ?? null, limit],
          kind === "messages" ? toMessage : KINDS[kind as Exclude<PersonalDataKind, "messages">].map,
        ),
      deliveriesOf: (workspaceId, eventIds) =>
        many(
          q,
          `SELECT id, event_id, subscription_id, status, attempt_count, created_at, delivered_at
           FROM ${s}.webhook_deliveries
           WHERE workspace_id = $1 AND event_id IN (SELECT jsonb_array_elements_text($2::jsonb))
           ORDER BY created_at, id`,
          [workspaceId, json(eventIds)],
          (r) => ({
            id: r.id,
            eventId: r.event_id,
            subscriptionId: r.subscription_id,
            status: r.status,
            attemptCount: num(r.attempt_count),
            createdAt: iso(r.created_at),
            deliveredAt: isoOrNull(r.delivered_at),
          }),
        ),
      async lockForErasure(workspaceId, contactId) {
        // The whole table first, then the row: a lead's one-statement insert of a new contact takes
        // its snapshot after its table lock, so one that waited for this erasure sees the suppression
        // it committed, instead of slipping in through the phone this erasure frees. Taken before
        // any row lock, so it waits for in-flight intake instead of deadlocking with it.
        await q.query(`LOCK TABLE ${s}.contacts IN EXCLUSIVE MODE`);
        return one(
          q,
          `SELECT * FROM ${s}.contacts WHERE workspace_id = $1 AND id = $2 FOR UPDATE`,
          [workspaceId, contactId],
          toContact,
        );
      },
      async erase(workspaceId, contactId, { suppression, record, at }) {
        const counts = noErasureCounts();
        for (const step of erasureSteps(s)) {
          // Only the parameters a statement names: PostgreSQL can't type one it never sees.
          const params = [
            workspaceId,
            contactId,
            ...(step.usesAt ? [at] : []),
            ...(step.fourth === undefined ? [] : [step.fourth(at)]),
          ];
          const result = await q.query(step.text, params);
          if (step.kind === "events+") {
            const row = result.rows[0];
            counts.events = num(row?.events ?? 0);
            counts.deliveriesCancelled = num(row?.cancelled ?? 0);
            counts.attempts = num(row?.attempts ?? 0);
          } else if (step.kind !== "contacts") counts[step.kind] = result.rowCount ?? 0;
        }
        const blanked = await q.query(
          `UPDATE ${s}.contacts SET name = NULL, phone_e164 = NULL, email = NULL, tags = '[]', score = NULL, ltv = NULL,
             whatsapp_consent = NULL, whatsapp_opted_out_at = NULL, possible_duplicate_of = NULL, whatsapp_user_id = NULL,
             whatsapp_last_inbound_at = NULL, whatsapp_resumed_at = NULL, updated_at = $3
           WHERE workspace_id = $1 AND id = $2`,
          [workspaceId, contactId, at],
        );
        counts.contacts = blanked.rowCount ?? 0;
        if (suppression !== null)
          await q.query(
            `INSERT INTO ${s}.suppressions (workspace_id, phone_hash, user_id_hash, opted_out_at, created_at)
             VALUES ($1, $2, $3, $4, $5)`,
            [
              suppression.workspaceId,
              suppression.phoneHash,
              suppression.userIdHash,
              suppression.optedOutAt,
              suppression.createdAt,
            ],
          );
        await q.query(
          `INSERT INTO ${s}.erasures (id, workspace_id, contact_id, requested_by, erased_at, counts)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
          [record.id, record.workspaceId, record.contactId, record.requestedBy, record.erasedAt, json(counts)],
        );
        return counts;
      },
      findSuppression: (workspaceId, { phoneHash = null, userIdHash = null }) =>
        one(
          q,
          `SELECT * FROM ${s}.suppressions
           WHERE workspace_id = $1 AND (phone_hash = $2::text OR user_id_hash = $3::text)
           ORDER BY opted_out_at LIMIT 1`,
          [workspaceId, phoneHash, userIdHash],
          toSuppression,
        ),
      listErasures: (workspaceId, { limit }) =>
        many(
          q,
          `SELECT * FROM ${s}.erasures WHERE workspace_id = $1 ORDER BY erased_at DESC, id DESC LIMIT $2`,
          [workspaceId, limit],
          toErasure,
        ),
    },
  };
}
