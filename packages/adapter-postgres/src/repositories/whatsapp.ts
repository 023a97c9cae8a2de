import type { ConsentLedgerEntry, DeliveryState, StorageRepositories } from "@vitrina/core";
import type { WhatsAppChannelRecord } from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { iso, isoOrNull, json, many, one, placeholders } from "../rows.js";

const toChannel = (r: any): WhatsAppChannelRecord => ({
  workspaceId: r.workspace_id,
  phoneNumberId: r.phone_number_id,
  sealedAccessToken: r.sealed_access_token,
  sealedAppSecret: r.sealed_app_secret,
  verifyTokenHash: r.verify_token_hash,
  graphBaseUrl: r.graph_base_url,
  apiVersion: r.api_version,
  optOutKeywords: r.opt_out_keywords,
  optInKeywords: r.opt_in_keywords,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/**
 * A delivery_reports row as a record: from the table, or from `row_to_json` of it in a join (where
 * timestamps come back as text in PostgreSQL's own format, hence `isoOrNull` on every one).
 */
export const toDelivery = (r: any): DeliveryState => ({
  status: r.status,
  sentAt: isoOrNull(r.sent_at),
  deliveredAt: isoOrNull(r.delivered_at),
  readAt: isoOrNull(r.read_at),
  failedAt: isoOrNull(r.failed_at),
  failureCode: r.failure_code ?? null,
  failureTitle: r.failure_title ?? null,
});

/** `{ delivery }` from a joined `delivery` column, or nothing when there is no report. */
export const deliveryField = (r: any) => (r.delivery == null ? {} : { delivery: toDelivery(r.delivery) });

/**
 * A LEFT JOIN that brings `table`'s delivery report (as `delivery`, JSON) for rows aliased `alias`:
 * the report is keyed by the provider's id alone, so it can arrive before the message has one.
 */
export const joinDelivery = (s: string, alias: string) =>
  `LEFT JOIN ${s}.delivery_reports d ON d.workspace_id = ${alias}.workspace_id AND d.provider_message_id = ${alias}.provider_message_id`;

export const toEntry = (r: any): ConsentLedgerEntry => ({
  id: r.id,
  workspaceId: r.workspace_id,
  contactId: r.contact_id,
  kind: r.kind,
  source: r.source,
  sourceRef: r.source_ref,
  evidence: r.evidence,
  occurredAt: iso(r.occurred_at),
  recordedAt: iso(r.recorded_at),
  dedupeKey: r.dedupe_key,
});

export const ledgerValues = (e: ConsentLedgerEntry) => [
  e.id,
  e.workspaceId,
  e.contactId,
  e.kind,
  e.source,
  e.sourceRef,
  json(e.evidence),
  e.occurredAt,
  e.recordedAt,
  e.dedupeKey,
];

export const LEDGER_COLUMNS =
  "id, workspace_id, contact_id, kind, source, source_ref, evidence, occurred_at, recorded_at, dedupe_key";

/** The status the timestamps say (read > delivered > failed > sent), as `deliveryStatusOf` in core. */
const derivedStatus = (read: string, delivered: string, failed: string) =>
  `CASE WHEN ${read} IS NOT NULL THEN 'read' WHEN ${delivered} IS NOT NULL THEN 'delivered'
        WHEN ${failed} IS NOT NULL THEN 'failed' ELSE 'sent' END`;

export function whatsappRepositories(
  q: Queryable,
  s: string,
): Pick<StorageRepositories, "whatsappChannels" | "deliveryReports" | "consentLedger"> {
  return {
    whatsappChannels: {
      async put(c) {
        const { rows } = await q.query(
          `INSERT INTO ${s}.whatsapp_channels AS w (workspace_id, phone_number_id, sealed_access_token, sealed_app_secret,
             verify_token_hash, graph_base_url, api_version, opt_out_keywords, opt_in_keywords, created_at, updated_at)
           VALUES (${placeholders(11)})
           ON CONFLICT (workspace_id) DO UPDATE SET phone_number_id = EXCLUDED.phone_number_id,
             sealed_access_token = EXCLUDED.sealed_access_token, sealed_app_secret = EXCLUDED.sealed_app_secret,
             verify_token_hash = EXCLUDED.verify_token_hash, graph_base_url = EXCLUDED.graph_base_url,
             api_version = EXCLUDED.api_version, opt_out_keywords = EXCLUDED.opt_out_keywords,
             opt_in_keywords = EXCLUDED.opt_in_keywords, updated_at = EXCLUDED.updated_at
           RETURNING *`,
          [
            c.workspaceId,
            c.phoneNumberId,
            c.sealedAccessToken,
            c.sealedAppSecret,
            c.verifyTokenHash,
            c.graphBaseUrl,
            c.apiVersion,
            c.optOutKeywords === null ? null : json(c.optOutKeywords),
            c.optInKeywords === null ? null : json(c.optInKeywords),
            c.createdAt,
            c.updatedAt,
          ],
        );
        return toChannel(rows[0]);
      },
      get: (workspaceId) =>
        one(q, `SELECT * FROM ${s}.whatsapp_channels WHERE workspace_id = $1`, [workspaceId], toChannel),
      findByPhoneNumberIds: (ids) =>
        ids.length === 0
          ? Promise.resolve([])
          : many(q, `SELECT * FROM ${s}.whatsapp_channels WHERE phone_number_id = ANY($1::text[])`, [ids], toChannel),
      async hasVerifyTokenHash(hash) {
        const { rows } = await q.query(`SELECT 1 FROM ${s}.whatsapp_channels WHERE verify_token_hash = $1 LIMIT 1`, [
          hash,
        ]);
        return rows.length > 0;
      },
      async delete(workspaceId) {
        return affected(await q.query(`DELETE FROM ${s}.whatsapp_channels WHERE workspace_id = $1`, [workspaceId])) > 0;
      },
    },
    deliveryReports: {
      async recordStatuses(workspaceId, reports) {
        if (reports.length === 0) return [];
        // One statement for the whole batch. ON CONFLICT … DO UPDATE locks each existing row and
        // computes the SET on its latest committed version, so concurrent batches (a redelivery,
        // `delivered` and `read` in parallel) each keep their timestamps: coalesce keeps the first
        // per status, and the status is derived from the merged columns. Rows are taken in id
        // order, so two batches touching the same messages lock them in the same order (no deadlock).
        const column = <K extends keyof (typeof reports)[number]>(key: K) => reports.map((r) => r[key]);
        const { rows } = await q.query(
          `WITH input AS (
             SELECT * FROM unnest($2::text[], $3::timestamptz[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[],
               $7::int[], $8::text[]) AS u(provider_message_id, sent_at, delivered_at, read_at, failed_at, failure_code, failure_title)
           ), merged AS (
             INSERT INTO ${s}.delivery_reports AS d (workspace_id, provider_message_id, status, sent_at, delivered_at, read_at,
               failed_at, failure_code, failure_title, updated_at)
             SELECT $1, provider_message_id, ${derivedStatus("read_at", "delivered_at", "failed_at")}, sent_at, delivered_at,
               read_at, failed_at, failure_code, failure_title, now() FROM input ORDER BY provider_message_id
             ON CONFLICT (workspace_id, provider_message_id) DO UPDATE SET
               sent_at = coalesce(d.sent_at, EXCLUDED.sent_at),
               delivered_at = coalesce(d.delivered_at, EXCLUDED.delivered_at),
               read_at = coalesce(d.read_at, EXCLUDED.read_at),
               failed_at = coalesce(d.failed_at, EXCLUDED.failed_at),
               failure_code = CASE WHEN d.failed_at IS NULL THEN EXCLUDED.failure_code ELSE d.failure_code END,
               failure_title = CASE WHEN d.failed_at IS NULL THEN EXCLUDED.failure_title ELSE d.failure_title END,
               status = ${derivedStatus(
                 "coalesce(d.read_at, EXCLUDED.read_at)",
                 "coalesce(d.delivered_at, EXCLUDED.delivered_at)",
                 "coalesce(d.failed_at, EXCLUDED.failed_at)",
               )},
               updated_at = EXCLUDED.updated_at
             RETURNING d.*
           )
           SELECT m.*, coalesce(
             (SELECT o.contact_id FROM ${s}.outbound_messages o
               WHERE o.workspace_id = $1 AND o.provider_message_id = m.provider_message_id LIMIT 1),
             (SELECT c.contact_id FROM ${s}.messages g JOIN ${s}.conversations c ON c.id = g.conversation_id
               WHERE g.workspace_id = $1 AND g.provider_message_id = m.provider_message_id)
           ) AS contact_id
           FROM merged m`,
          [
            workspaceId,
            column("providerMessageId"),
            column("sentAt"),
            column("deliveredAt"),
            column("readAt"),
            column("failedAt"),
            column("failureCode"),
            column("failureTitle"),
          ],
        );
        return rows.map((r) => ({
          providerMessageId: r.provider_message_id,
          state: toDelivery(r),
          contactId: r.contact_id ?? null,
        }));
      },
      get: (workspaceId, providerMessageId) =>
        one(
          q,
          `SELECT * FROM ${s}.delivery_reports WHERE workspace_id = $1 AND provider_message_id = $2`,
          [workspaceId, providerMessageId],
          toDelivery,
        ),
      async purgeOrphans(before, limit) {
        // SKIP LOCKED: a report a webhook is merging right now is left for the next run.
        const result = await q.query(
          `DELETE FROM ${s}.delivery_reports WHERE (workspace_id, provider_message_id) IN (
             SELECT d.workspace_id, d.provider_message_id FROM ${s}.delivery_reports d
             WHERE d.updated_at < $1
               AND NOT EXISTS (SELECT 1 FROM ${s}.outbound_messages o
                               WHERE o.workspace_id = d.workspace_id AND o.provider_message_id = d.provider_message_id)
               AND NOT EXISTS (SELECT 1 FROM ${s}.messages m
                               WHERE m.workspace_id = d.workspace_id AND m.provider_message_id = d.provider_message_id)
             LIMIT $2 FOR UPDATE SKIP LOCKED)`,
          [before, limit],
        );
        return affected(result);
      },
    },
    consentLedger: {
      async append(entry) {
        const result = await q.query(
          `INSERT INTO ${s}.consent_ledger (${LEDGER_COLUMNS}) VALUES (${placeholders(10)})
           ON CONFLICT (workspace_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING`,
          ledgerValues(entry),
        );
        return affected(result) === 1;
      },
      listByContact: (workspaceId, contactId, { limit }) =>
        many(
          q,
          `SELECT * FROM ${s}.consent_ledger WHERE workspace_id = $1 AND contact_id = $2
           ORDER BY occurred_at DESC, recorded_at DESC, id DESC LIMIT $3`,
          [workspaceId, contactId, limit],
          toEntry,
        ),
    },
  };
}
