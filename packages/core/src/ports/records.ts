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

/**
 * A membership as `workspaces.getMember` reads it: with its console session epoch, an opaque value
 * the adapter generates for every new membership and replaces on `workspaces.endSessions`. A console
 * session carries the epoch it was signed in under and ends when the stored one differs.
 */
export interface MemberWithSessions extends MemberRecord {
  sessionEpoch: string;
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
  /**
   * The provider's business-scoped user id (WhatsApp `user_id`), kept when a webhook carried it: a
   * person with a WhatsApp username may arrive without a phone number. Absent until then.
   */
  whatsappUserId?: string;
  /**
   * When the person last wrote to the business on WhatsApp (the provider's timestamp): the 24-hour
   * customer-service window runs from it. Absent until their first inbound message.
   */
  whatsappLastInboundAt?: string;
  /**
   * When the person last opted back in on the channel (a `resume` preference or a START keyword).
   * An opt-out whose evidence is older than this one does not apply (webhooks arrive in any order).
   */
  whatsappResumedAt?: string;
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
  /** Where a later touch came from, e.g. the click-to-WhatsApp ad (`referral`) of an inbound message. */
  attribution?: Record<string, unknown>;
  createdAt: string;
}

/**
 * A first message's state. `queued`, `blocked` and `failed` are decided by Vitrina at intake and
 * send time; `sent`, `delivered`, `read` (and `failed` again) come from the provider's status
 * webhooks, never backwards (see `channels/whatsapp/delivery-status.ts`).
 */
export type OutboundStatus = "sent" | "queued" | "blocked" | "failed" | "delivered" | "read";

/** A status the provider reports about a message it took, by webhook. */
export type ProviderStatus = "sent" | "delivered" | "read" | "failed";

/**
 * What the provider reported about one message it took (by its id), one timestamp per status: the
 * state is the same whatever order the statuses arrived in (see `deliveryStatusOf`).
 */
export interface DeliveryState {
  status: ProviderStatus;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  failedAt: string | null;
  /** The provider's error code and title of the failure (e.g. 131050), null without one. */
  failureCode: number | null;
  failureTitle: string | null;
}

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
  /**
   * The provider's later reports on the message (status webhooks), attached on read once one
   * arrived. `status` keeps what Vitrina decided; `outboundStateOf` combines the two.
   */
  delivery?: DeliveryState;
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
  /** The text, or for other kinds a readable summary (`[image] caption`). */
  content: string;
  /** The channel's id of the message (WhatsApp `wamid.…`), when it went through or came from one. */
  providerMessageId?: string;
  /** What kind of message it is on the channel (`text`, `button`, `image`, `reaction`, …); absent for plain text we wrote. */
  kind?: string;
  /** The provider message id this one answers (WhatsApp `context.id`). */
  replyTo?: string;
  /** The kind's own fields as received (media id and caption, location, the ad `referral`, …). */
  details?: Record<string, unknown>;
  /** The provider's delivery reports for a message we sent, once one arrived. */
  delivery?: DeliveryState;
  /** Set when retention blanked `content` and `details`; absent while the text is kept. */
  contentRedactedAt?: string;
  createdAt: string;
}

/** How a person's WhatsApp consent changed: granted or withdrawn by a lead, opted out, or resumed. */
export type ConsentChangeKind = "granted" | "withdrawn" | "opted_out" | "resumed";

/**
 * Where a consent change came from: a lead's connector, an opt-out keyword, WhatsApp's own
 * marketing preference, a send that failed with 131050, a console user, an API key, or a call to
 * `contacts.optOutOfWhatsApp` in code.
 */
export type ConsentSource =
  "lead" | "keyword" | "whatsapp_preference" | "error_131050" | "console" | "api_key" | "service";

/** One entry of the consent ledger: append-only evidence of a consent change. */
export interface ConsentLedgerEntry {
  id: string;
  workspaceId: string;
  contactId: string;
  kind: ConsentChangeKind;
  source: ConsentSource;
  /** Who or what, within the source: the connector id, the user id, the API key id; null when none. */
  sourceRef: string | null;
  /** What proves it: message id, the words, the provider's timestamp, the lead event… */
  evidence: Record<string, unknown>;
  /** When it happened by the evidence (the provider's timestamp, the consent's own time). */
  occurredAt: string;
  recordedAt: string;
  /**
   * Set for changes that can arrive twice (webhook redeliveries, lead resends): the ledger keeps
   * one entry per key in a workspace. Null for one-off changes made by a person.
   */
  dedupeKey: string | null;
}
