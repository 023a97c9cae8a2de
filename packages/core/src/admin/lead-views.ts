import { connectorLeadView } from "./admin-views.js";
import type { LeadRefusalRecord, WorkspaceLeadSummary } from "../ports/lead-operations-storage.js";

/** One lead of the workspace-wide list, with where it leads (contact, opportunity, conversation). */
export function workspaceLeadView(l: WorkspaceLeadSummary) {
  const { object: _connectorLead, ...lead } = connectorLeadView(l);
  return {
    ...lead,
    object: "lead" as const,
    connector_id: l.connectorId,
    contact_id: l.contactId,
    opportunity_id: l.opportunityId,
    conversation_id: l.conversationId,
  };
}
export type WorkspaceLeadView = ReturnType<typeof workspaceLeadView>;

/** One refused lead of a connector: what an integrator needs to fix the sender, nothing it sent. */
export function leadRefusalView(r: LeadRefusalRecord) {
  return {
    id: r.id,
    object: "lead_refusal" as const,
    connector_id: r.connectorId,
    at: r.at,
    code: r.code,
    fields: r.fields,
    timestamp_skew_ms: r.skewMs,
    request_id: r.requestId,
    unrecorded_before: r.unrecordedBefore,
  };
}
export type LeadRefusalView = ReturnType<typeof leadRefusalView>;
