import type { ApiKeyRecord } from "../ports/webhook-records.js";
import type { MemberDetails } from "../ports/member-storage.js";
import type { ConnectorLeadSummary } from "../ports/admin-storage.js";
import type { ConnectorRecord, ConsentLedgerEntry, ContactRecord } from "../ports/records.js";
import { serviceWindow } from "../channels/whatsapp/service-window.js";

/** The wire shape of a connector: snake_case, never the secret. */
export function connectorView(c: ConnectorRecord) {
  return {
    id: c.id,
    object: "connector" as const,
    name: c.name,
    system: c.systemId,
    created_at: c.createdAt,
    rotated_at: c.rotatedAt,
  };
}
export type ConnectorView = ReturnType<typeof connectorView>;

/** The wire shape of an API key: the visible prefix only, never the hash. */
export function apiKeyView(k: ApiKeyRecord, lastUsedAt: string | null) {
  return {
    id: k.id,
    object: "api_key" as const,
    name: k.name,
    prefix: k.visiblePrefix,
    scopes: k.scopes,
    created_at: k.createdAt,
    last_used_at: lastUsedAt,
    revoked_at: k.revokedAt,
  };
}
export type ApiKeyWireView = ReturnType<typeof apiKeyView>;

export function memberView(m: MemberDetails) {
  return { object: "member" as const, user_id: m.userId, email: m.email, role: m.role, added_at: m.addedAt };
}
export type MemberView = ReturnType<typeof memberView>;

/** One of a connector's recent leads with its outcome. */
export function connectorLeadView(l: ConnectorLeadSummary) {
  return {
    id: l.id,
    object: "connector_lead" as const,
    received_at: l.receivedAt,
    source_lead_id: l.sourceLeadId,
    duplicate: l.duplicate,
    outbound_status: l.outboundStatus,
    outbound_reason: l.outboundReason,
    rejected_qualification: l.rejectedQualification,
  };
}
export type ConnectorLeadView = ReturnType<typeof connectorLeadView>;

/** A contact as consent decisions see it: who, their WhatsApp consent and opt-out, and the 24-hour service window at `now`. */
export function contactConsentView(c: ContactRecord, now: Date) {
  const window = serviceWindow(c, now);
  const consent = c.whatsappConsent;
  return {
    id: c.id,
    object: "contact" as const,
    name: c.name,
    phone_e164: c.phoneE164,
    whatsapp_user_id: c.whatsappUserId ?? null,
    whatsapp_consent:
      consent === null
        ? null
        : {
            granted: consent.granted,
            timestamp: consent.timestamp,
            source: consent.source,
            purpose: consent.purpose,
            connector_id: consent.connectorId,
            lead_event_id: consent.leadEventId,
            recorded_at: consent.recordedAt,
          },
    whatsapp_opted_out_at: c.whatsappOptedOutAt,
    whatsapp_resumed_at: c.whatsappResumedAt ?? null,
    whatsapp_last_inbound_at: c.whatsappLastInboundAt ?? null,
    service_window: { open: window.open, closes_at: window.closesAt },
  };
}
export type ContactConsentView = ReturnType<typeof contactConsentView>;

/** One consent ledger entry; `evidence` is passed through as recorded. */
export function consentEntryView(e: ConsentLedgerEntry) {
  return {
    id: e.id,
    object: "consent_change" as const,
    workspace_id: e.workspaceId,
    contact_id: e.contactId,
    kind: e.kind,
    source: e.source,
    source_ref: e.sourceRef,
    evidence: e.evidence,
    occurred_at: e.occurredAt,
    recorded_at: e.recordedAt,
    dedupe_key: e.dedupeKey,
  };
}
export type ConsentEntryView = ReturnType<typeof consentEntryView>;
