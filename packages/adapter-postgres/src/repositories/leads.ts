import type { LeadEventRecord, OpportunityRecord, OutboundMessageRecord, StorageRepositories } from "@vitrina/core";
import { affected, type Queryable } from "../driver.js";
import { iso, json, many, num, one, placeholders } from "../rows.js";

const toLead = (r: any): LeadEventRecord => ({
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
});

const toOpportunity = (r: any): OpportunityRecord => ({
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
  createdAt: iso(r.created_at),
});

const toOutbound = (r: any): OutboundMessageRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  leadEventId: r.lead_event_id,
  contactId: r.contact_id,
  channel: r.channel,
  status: r.status,
  reason: r.reason,
  providerMessageId: r.provider_message_id,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const outboundValues = (m: OutboundMessageRecord) => [
  m.id, m.workspaceId, m.leadEventId, m.contactId, m.channel, m.status, m.reason, m.providerMessageId, m.createdAt, m.updatedAt,
];

export function leadRepositories(q: Queryable, s: string): Pick<StorageRepositories, "leads" | "opportunities" | "outbound"> {
  return {
    leads: {
      async insertIfNew(l) {
        // A concurrent insert of the same (connector, source_lead_id) blocks here until it commits;
        // then DO NOTHING: exactly one transaction registers the lead.
        const result = await q.query(
          `INSERT INTO ${s}.lead_events (id, workspace_id, connector_id, source_lead_id, contact_id, opportunity_id, eligible_for_whatsapp, payload, qualification_rejected, received_at)
           VALUES (${placeholders(10)}) ON CONFLICT ON CONSTRAINT lead_events_source_key DO NOTHING`,
          [l.id, l.workspaceId, l.connectorId, l.sourceLeadId, l.contactId, l.opportunityId, l.eligibleForWhatsapp, json(l.payload), json(l.qualificationRejected), l.receivedAt],
        );
        return affected(result) === 1;
      },
      findBySourceId: (connectorId, sourceLeadId) =>
        one(q, `SELECT * FROM ${s}.lead_events WHERE connector_id = $1 AND source_lead_id = $2`, [connectorId, sourceLeadId], toLead),
      get: (id) => one(q, `SELECT * FROM ${s}.lead_events WHERE id = $1`, [id], toLead),
      async countByWorkspace(workspaceId) {
        return (await one(q, `SELECT count(*) AS n FROM ${s}.lead_events WHERE workspace_id = $1`, [workspaceId], (r) => num(r.n))) ?? 0;
      },
    },
    opportunities: {
      async insert(o) {
        await q.query(
          `INSERT INTO ${s}.opportunities (id, workspace_id, contact_id, lead_event_id, stage, source, campaign_id, catalog_item_id, landing_page, qualification, created_at)
           VALUES (${placeholders(11)})`,
          [o.id, o.workspaceId, o.contactId, o.leadEventId, o.stage, o.source, o.campaignId, o.catalogItemId, o.landingPage, json(o.qualification), o.createdAt],
        );
      },
      get: (id) => one(q, `SELECT * FROM ${s}.opportunities WHERE id = $1`, [id], toOpportunity),
      listByContact: (contactId) =>
        many(q, `SELECT * FROM ${s}.opportunities WHERE contact_id = $1 ORDER BY created_at, id`, [contactId], toOpportunity),
    },
    outbound: {
      async insert(m) {
        await q.query(
          `INSERT INTO ${s}.outbound_messages (id, workspace_id, lead_event_id, contact_id, channel, status, reason, provider_message_id, created_at, updated_at)
           VALUES (${placeholders(10)})`,
          outboundValues(m),
        );
      },
      findByLeadEvent: (leadEventId) => one(q, `SELECT * FROM ${s}.outbound_messages WHERE lead_event_id = $1`, [leadEventId], toOutbound),
      async update(m) {
        const result = await q.query(
          `UPDATE ${s}.outbound_messages SET workspace_id = $2, lead_event_id = $3, contact_id = $4, channel = $5, status = $6, reason = $7,
             provider_message_id = $8, created_at = $9, updated_at = $10 WHERE id = $1`,
          outboundValues(m),
        );
        return affected(result) > 0;
      },
      listByWorkspace: (workspaceId) =>
        many(q, `SELECT * FROM ${s}.outbound_messages WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId], toOutbound),
      findLatestLiveByContact: (workspaceId, contactId, since) =>
        one(
          q,
          `SELECT * FROM ${s}.outbound_messages WHERE workspace_id = $1 AND contact_id = $2 AND status IN ('queued', 'sent') AND created_at >= $3
           ORDER BY created_at DESC, id DESC LIMIT 1`,
          [workspaceId, contactId, since],
          toOutbound,
        ),
    },
  };
}
