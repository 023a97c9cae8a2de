import type { LeadEventRecord, OpportunityRecord, StorageRepositories } from "@vitrina/core";
import { affected, type Queryable } from "../driver.js";
import { iso, json, many, num, one, placeholders, textPerSchema, violates } from "../rows.js";
import { CONTACT_COLUMNS, contactValues, oldestWithEmail } from "./contacts.js";
import { outboundValues } from "./outbound.js";
import { LEDGER_COLUMNS, ledgerValues } from "./whatsapp.js";

export const toLead = (r: any): LeadEventRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  connectorId: r.connector_id,
  sourceLeadId: r.source_lead_id,
  contactId: r.contact_id,
  opportunityId: r.opportunity_id,
  eligibleForWhatsapp: r.eligible_for_whatsapp,
  payload: r.payload,
  qualificationRejected: r.qualification_rejected,
  receivedAt: iso(r.received_at),
  ...(r.payload_redacted_at === null || r.payload_redacted_at === undefined
    ? {}
    : { payloadRedactedAt: iso(r.payload_redacted_at) }),
});

const leadValues = (l: LeadEventRecord) => [
  l.id,
  l.workspaceId,
  l.connectorId,
  l.sourceLeadId,
  l.contactId,
  l.opportunityId,
  l.eligibleForWhatsapp,
  json(l.payload),
  json(l.qualificationRejected),
  l.receivedAt,
];

const opportunityValues = (o: OpportunityRecord) => [
  o.id,
  o.workspaceId,
  o.contactId,
  o.leadEventId,
  o.stage,
  o.source,
  o.campaignId,
  o.catalogItemId,
  o.landingPage,
  json(o.qualification),
  o.createdAt,
];

export const toOpportunity = (r: any): OpportunityRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  contactId: r.contact_id,
  leadEventId: r.lead_event_id,
  stage: r.stage,
  source: r.source,
  campaignId: r.campaign_id,
  catalogItemId: r.catalog_item_id,
  landingPage: r.landing_page,
  qualification: r.qualification,
  ...(r.attribution != null && { attribution: r.attribution }),
  createdAt: iso(r.created_at),
});

const LEAD_COLUMNS = `id, workspace_id, connector_id, source_lead_id, contact_id, opportunity_id, eligible_for_whatsapp,
  payload, qualification_rejected, received_at`;

/** `$from`, `$from+1`, … (`count` of them). */
const numbered = (from: number, count: number) => Array.from({ length: count }, (_, i) => `$${from + i}`);

/**
 * The opportunity and outbound CTEs of a registration, inserted from the `lead` CTE's row (none for
 * a lead that wasn't inserted), with their parameters from `$first` on (opportunityValues, then
 * outboundValues). A parameter in a SELECT list has no column type to take, so the non-text ones
 * are cast: the opportunity's qualification (jsonb) and created_at, the outbound record's four times.
 */
const insertsFromLead = (s: string, first: number) => {
  const opportunity = [...numbered(first, 9), `$${first + 9}::jsonb`, `$${first + 10}::timestamptz`];
  const outbound = [...numbered(first + 11, 8), ...numbered(first + 19, 4).map((p) => `${p}::timestamptz`)];
  return `opportunity AS (
     INSERT INTO ${s}.opportunities (id, workspace_id, contact_id, lead_event_id, stage, source, campaign_id, catalog_item_id,
       landing_page, qualification, created_at)
     SELECT ${opportunity.join(", ")} FROM lead
   ), outbound AS (
     INSERT INTO ${s}.outbound_messages (id, workspace_id, lead_event_id, contact_id, channel, status, reason, provider_message_id,
       handed_to_provider_at, provider_answered_at, created_at, updated_at)
     SELECT ${outbound.join(", ")} FROM lead
   )`;
};

/**
 * The text of `registerNewPerson`'s statement (its parameters: contactValues' first 12,
 * leadValues, opportunityValues, outboundValues, then the secret version, $46, and the phone's
 * keyed hash, $47, null for no suppression check). $15 is the lead's connector_id.
 */
const newPersonStatement = (s: string, withConsent: boolean) => `WITH contact AS (
     INSERT INTO ${s}.contacts (${CONTACT_COLUMNS})
     SELECT $1, $2, $3, $4, $5, $6::jsonb, $7::float8, $8::float8, $9::jsonb, $10::timestamptz, $11::timestamptz,
       $12::timestamptz, ${oldestWithEmail(s, 2, 5)}
     WHERE EXISTS (SELECT 1 FROM ${s}.connectors WHERE id = $15 AND secret_version = $46::int)
       AND NOT EXISTS (SELECT 1 FROM ${s}.suppressions WHERE workspace_id = $2 AND phone_hash = $47::text)
     ON CONFLICT ON CONSTRAINT contacts_phone_key DO NOTHING RETURNING id
   ), lead AS (
     INSERT INTO ${s}.lead_events (${LEAD_COLUMNS})
     SELECT $13, $14, $15, $16, $17, $18, $19::boolean, $20::jsonb, $21::jsonb, $22::timestamptz FROM contact
     RETURNING id
   ), ${insertsFromLead(s, 23)}${
     withConsent
       ? `, consent AS (
     INSERT INTO ${s}.consent_ledger (${LEDGER_COLUMNS})
     SELECT $48, $49, $50, $51, $52, $53, $54::jsonb, $55::timestamptz, $56::timestamptz, $57 FROM lead
   )`
       : ""
   }
   SELECT count(*)::int AS registered FROM lead`;
const newPersonText = textPerSchema((s) => newPersonStatement(s, false));
/** `registerNewPerson`'s statement that also appends the lead's consent evidence to the ledger ($48–$57). */
const newPersonWithConsentText = textPerSchema((s) => newPersonStatement(s, true));

export function leadRepositories(q: Queryable, s: string): Pick<StorageRepositories, "leads" | "opportunities"> {
  return {
    leads: {
      async insertIfNew(l) {
        // A concurrent insert of the same (connector, source_lead_id) blocks here until it commits;
        // then DO NOTHING: exactly one transaction registers the lead.
        const result = await q.query(
          `INSERT INTO ${s}.lead_events (id, workspace_id, connector_id, source_lead_id, contact_id, opportunity_id, eligible_for_whatsapp, payload, qualification_rejected, received_at)
           VALUES (${placeholders(10)}) ON CONFLICT ON CONSTRAINT lead_events_source_key DO NOTHING`,
          leadValues(l),
        );
        return affected(result) === 1;
      },
      async registerIfNew(lead, opportunity, outbound) {
        // One round trip for three inserts: the opportunity and the outbound record are inserted
        // from the lead's RETURNING, so a duplicate (DO NOTHING, no row) inserts neither. As in
        // insertIfNew, a concurrent insert of the same lead blocks here until it commits.
        const { rows } = await q.query(
          `WITH lead AS (
             INSERT INTO ${s}.lead_events (${LEAD_COLUMNS}) VALUES (${placeholders(10)})
             ON CONFLICT ON CONSTRAINT lead_events_source_key DO NOTHING RETURNING id
           ), ${insertsFromLead(s, 11)}
           SELECT count(*)::int AS registered FROM lead`,
          [...leadValues(lead), ...opportunityValues(opportunity), ...outboundValues(outbound)],
        );
        return rows[0]?.registered === 1;
      },
      async registerNewPerson(contact, lead, opportunity, outbound, secretVersion, consent, phoneHash) {
        // One statement, no transaction: the contact's insert drives the lead's, which drives the
        // other two, so a phone that already has a contact (DO NOTHING: no row; a concurrent insert
        // of it is waited for) or a connector whose secret was rotated since (no row from the
        // SELECT) writes nothing. The lead's insert has no ON CONFLICT on purpose: a resend would
        // otherwise leave the new contact behind without its lead, so it fails the whole statement
        // instead, and the caller's general path answers the duplicate. The contact's values are
        // cast because a parameter in a SELECT list has no column type to take. A first message to
        // send arrives already handed over (see the port), so this one commit is also its claim.
        const params = [
          ...contactValues(contact).slice(0, 12),
          ...leadValues(lead),
          ...opportunityValues(opportunity),
          ...outboundValues(outbound),
          secretVersion,
          phoneHash ?? null,
          ...(consent === undefined ? [] : ledgerValues(consent)),
        ];
        try {
          const text = consent === undefined ? newPersonText(s) : newPersonWithConsentText(s);
          const { rows } = await q.query(text, params);
          return rows[0]?.registered === 1;
        } catch (error) {
          if (violates(error, "lead_events_source_key")) return false;
          throw error;
        }
      },
      findBySourceId: (connectorId, sourceLeadId) =>
        one(
          q,
          `SELECT * FROM ${s}.lead_events WHERE connector_id = $1 AND source_lead_id = $2`,
          [connectorId, sourceLeadId],
          toLead,
        ),
      get: (id) => one(q, `SELECT * FROM ${s}.lead_events WHERE id = $1`, [id], toLead),
      async countByWorkspace(workspaceId) {
        return (
          (await one(q, `SELECT count(*) AS n FROM ${s}.lead_events WHERE workspace_id = $1`, [workspaceId], (r) =>
            num(r.n),
          )) ?? 0
        );
      },
    },
    opportunities: {
      async insert(o) {
        await q.query(
          `INSERT INTO ${s}.opportunities (id, workspace_id, contact_id, lead_event_id, stage, source, campaign_id, catalog_item_id, landing_page, qualification, created_at)
           VALUES (${placeholders(11)})`,
          opportunityValues(o),
        );
      },
      get: (id) => one(q, `SELECT * FROM ${s}.opportunities WHERE id = $1`, [id], toOpportunity),
      listByContact: (contactId) =>
        many(
          q,
          `SELECT * FROM ${s}.opportunities WHERE contact_id = $1 ORDER BY created_at, id`,
          [contactId],
          toOpportunity,
        ),
      async attributeNewest(workspaceId, contactId, attribution) {
        // The newest opportunity, locked, and set only while it has no attribution (the first ad kept).
        const { rows } = await q.query(
          `UPDATE ${s}.opportunities SET attribution = $3::jsonb
           WHERE id = (SELECT id FROM ${s}.opportunities WHERE workspace_id = $1 AND contact_id = $2
                       ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE)
             AND attribution IS NULL RETURNING id`,
          [workspaceId, contactId, json(attribution)],
        );
        return rows[0]?.id ?? null;
      },
    },
  };
}
