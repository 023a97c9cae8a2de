import type { LeadEventRecord, OpportunityRecord, StorageRepositories } from "@vitrina/core";
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
  ...(r.payload_redacted_at === null || r.payload_redacted_at === undefined
    ? {}
    : { payloadRedactedAt: iso(r.payload_redacted_at) }),
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

export function leadRepositories(q: Queryable, s: string): Pick<StorageRepositories, "leads" | "opportunities"> {
  return {
    leads: {
      async insertIfNew(l) {
        // A concurrent insert of the same (connector, source_lead_id) blocks here until it commits;
        // then DO NOTHING: exactly one transaction registers the lead.
        const result = await q.query(
          `INSERT INTO ${s}.lead_events (id, workspace_id, connector_id, source_lead_id, contact_id, opportunity_id, eligible_for_whatsapp, payload, qualification_rejected, received_at)
           VALUES (${placeholders(10)}) ON CONFLICT ON CONSTRAINT lead_events_source_key DO NOTHING`,
          [
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
          ],
        );
        return affected(result) === 1;
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
          [
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
          ],
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
    },
  };
}
