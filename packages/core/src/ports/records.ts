/**
 * The records Storage keeps for workspaces, connectors and leads. Timestamps are ISO 8601 UTC
 * strings so every adapter returns the same shape (PostgreSQL stores them as timestamptz).
 */

export type WorkspaceRole = "owner" | "admin" | "member";

/** Verticals decide which qualification fields a lead may carry. */
export type Vertical = "real_estate" | "generic";

export interface WorkspaceRecord {
  id: string;
  name: string;
  vertical: Vertical;
  /** ISO 4217 code of the workspace's money fields, e.g. `CLP`. */
  currency: string;
  createdAt: string;
}

export interface MemberRecord {
  workspaceId: string;
  userId: string;
  role: WorkspaceRole;
}

export interface ConnectorRecord {
  id: string;
  workspaceId: string;
  /** Visible name, shown in the console. */
  name: string;
  /** System identifier, no spaces, unique per workspace (e.g. `hubspot-main`). */
  systemId: string;
  /** The HMAC secret sealed by the SecretBox; never the plaintext. */
  sealedSecret: string;
  /** Bumped on each rotation; caches key on (id, secretVersion). */
  secretVersion: number;
  createdAt: string;
  rotatedAt: string | null;
}

export interface ConsentEvidence {
  granted: boolean;
  timestamp: string;
  source: string | null;
  purpose: string | null;
  connectorId: string;
  leadEventId: string;
  recordedAt: string;
}

export interface ContactRecord {
  id: string;
  workspaceId: string;
  name: string | null;
  phoneE164: string | null;
  email: string | null;
  tags: string[];
  score: number | null;
  ltv: number | null;
  /** Latest WhatsApp consent evidence received for this contact. */
  whatsappConsent: ConsentEvidence | null;
  /** Set when the contact opted out of WhatsApp; blocks every first message afterwards. */
  whatsappOptedOutAt: string | null;
  /**
   * Set on a contact created for a new phone whose email already belonged to this other contact:
   * maybe the same person, never merged automatically (on WhatsApp the phone is the identity).
   * Absent when there is no such suspicion.
   */
  possibleDuplicateOf?: string;
  createdAt: string;
  updatedAt: string;
}

export interface QualificationEvidence {
  connectorId: string;
  leadEventId: string;
  recordedAt: string;
}

export interface RecordedQualification {
  field: string;
  value: number;
  evidence: QualificationEvidence;
}

export interface RejectedQualification {
  field: string;
  reason: string;
}

export interface OpportunityRecord {
  id: string;
  workspaceId: string;
  contactId: string;
  leadEventId: string;
  stage: "new";
  source: string | null;
  campaignId: string | null;
  catalogItemId: string | null;
  landingPage: string | null;
  qualification: RecordedQualification[];
  createdAt: string;
}

export type OutboundStatus = "sent" | "queued" | "blocked" | "failed";

export interface OutboundMessageRecord {
  id: string;
  workspaceId: string;
  leadEventId: string;
  contactId: string;
  channel: "whatsapp";
  status: OutboundStatus;
  reason: string | null;
  providerMessageId: string | null;
  /** When it was handed to the messaging provider (the send lease started); null before. */
  handedToProviderAt: string | null;
  /** When the provider's answer (or its failure) was recorded; null while unknown. */
  providerAnsweredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface LeadEventRecord {
  id: string;
  workspaceId: string;
  connectorId: string;
  sourceLeadId: string;
  contactId: string;
  opportunityId: string;
  eligibleForWhatsapp: boolean;
  /** The validated payload as received; `metadata` inside it is untrusted tracing data. */
  payload: Record<string, unknown>;
  qualificationRejected: RejectedQualification[];
  receivedAt: string;
  /** Set when retention replaced `payload` with `{ redacted_at }`; absent while the payload is kept. */
  payloadRedactedAt?: string;
}

/** An event in the transactional outbox, in the envelope shape receivers get. */
export interface EventRecord {
  id: string;
  workspaceId: string;
  type: string;
  /** ISO 8601 UTC. */
  created: string;
  data: Record<string, unknown>;
}

export type ConversationStatus = "open" | "pending" | "closed";

export interface ConversationRecord {
  id: string;
  workspaceId: string;
  contactId: string;
  /** `whatsapp`, `web`, `email`, … any channel name. */
  channel: string;
  status: ConversationStatus;
  /** Set when the agent handed the case to a person. */
  escalatedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MessageRecord {
  id: string;
  workspaceId: string;
  conversationId: string;
  /** `contact`, `agent`, `human` or `system`. */
  sender: string;
  content: string;
  createdAt: string;
}
