import type { ApiKeyRecord } from "../ports/webhook-records.js";
import type { MemberDetails } from "../ports/member-storage.js";
import type { ConnectorLeadSummary } from "../ports/admin-storage.js";
import type { ConnectorRecord } from "../ports/records.js";

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
