import { contactRecord } from "../contacts/contact-record.js";
import type {
  ConnectorRecord,
  ConversationRecord,
  ConsentEvidence,
  ContactRecord,
  LeadEventRecord,
  OpportunityRecord,
  OutboundMessageRecord,
  WorkspaceRecord,
} from "../ports/records.js";

/** Record builders for contract tests: valid defaults, any field overridable. */
export function fixtures() {
  const id = () => crypto.randomUUID();
  // Millisecond ISO strings: every adapter must hand back exactly what it was given.
  const at = (offsetMs = 0) => new Date(Date.UTC(2026, 0, 1) + offsetMs).toISOString();
  return {
    id,
    at,
    /** Consent evidence as lead intake records it, for the lead `leadEventId`. */
    consent: (leadEventId: string): ConsentEvidence => ({
      granted: true,
      timestamp: at(),
      source: "form",
      purpose: "sales",
      connectorId: "connector-1",
      leadEventId,
      recordedAt: at(5),
    }),
    workspace: (over: Partial<WorkspaceRecord> = {}): WorkspaceRecord => ({
      id: id(),
      name: "Inmobiliaria Andes",
      vertical: "real_estate",
      currency: "CLP",
      createdAt: at(),
      ...over,
    }),
    connector: (workspaceId: string, over: Partial<ConnectorRecord> = {}): ConnectorRecord => ({
      id: id(),
      workspaceId,
      name: "HubSpot",
      systemId: `hubspot-${id().slice(0, 8)}`,
      sealedSecret: "v1.sealed.secret",
      secretVersion: 1,
      createdAt: at(),
      rotatedAt: null,
      ...over,
    }),
    contact: (workspaceId: string, over: Partial<ContactRecord> = {}): ContactRecord =>
      contactRecord({
        id: id(),
        workspaceId,
        name: "María José Ñuñez",
        phoneE164: `+569${Math.floor(10_000_000 + Math.random() * 89_999_999)}`,
        createdAt: at(),
        updatedAt: at(),
        ...over,
      }),
    lead: (workspaceId: string, connectorId: string, over: Partial<LeadEventRecord> = {}): LeadEventRecord => ({
      id: id(),
      workspaceId,
      connectorId,
      sourceLeadId: `crm-${id()}`,
      contactId: id(),
      opportunityId: id(),
      eligibleForWhatsapp: true,
      payload: { event: "lead.created", nested: { list: [1, "dos", null], emoji: "🏠" } },
      qualificationRejected: [{ field: "budget", reason: "unknown field" }],
      receivedAt: at(),
      ...over,
    }),
    opportunity: (
      workspaceId: string,
      contactId: string,
      leadEventId: string,
      over: Partial<OpportunityRecord> = {},
    ): OpportunityRecord => ({
      id: id(),
      workspaceId,
      contactId,
      leadEventId,
      stage: "new",
      source: "landing",
      campaignId: null,
      catalogItemId: "unit-101",
      landingPage: null,
      qualification: [
        { field: "monthly_income", value: 1_500_000, evidence: { connectorId: id(), leadEventId, recordedAt: at() } },
      ],
      createdAt: at(),
      ...over,
    }),
    /** An open WhatsApp conversation of the contact. */
    conversation: (
      workspaceId: string,
      contactId: string,
      over: Partial<ConversationRecord> = {},
    ): ConversationRecord => ({
      id: id(),
      workspaceId,
      contactId,
      channel: "whatsapp",
      status: "open",
      escalatedAt: null,
      createdAt: at(),
      updatedAt: at(),
      ...over,
    }),
    outbound: (
      workspaceId: string,
      leadEventId: string,
      contactId: string,
      over: Partial<OutboundMessageRecord> = {},
    ): OutboundMessageRecord => ({
      id: id(),
      workspaceId,
      leadEventId,
      contactId,
      channel: "whatsapp",
      status: "queued",
      reason: null,
      providerMessageId: null,
      handedToProviderAt: null,
      providerAnsweredAt: null,
      createdAt: at(),
      updatedAt: at(),
      ...over,
    }),
  };
}
