import type { ConsentLedgerEntry, ContactRecord, DeliveryState, MessageRecord } from "./records.js";

// Part of the Storage port (the WhatsApp channel: per-workspace channels, delivery reports, the
// consent ledger, inbound messages); see storage.ts.

/** A workspace's WhatsApp Cloud API number: how to send through it and how to check its webhooks. */
export interface WhatsAppChannelRecord {
  workspaceId: string;
  /** The business number's id at the provider (`metadata.phone_number_id`): unique across the server. */
  phoneNumberId: string;
  /** Sealed by the SecretBox; null for a channel that only receives (sends use the `messaging` transport). */
  sealedAccessToken: string | null;
  /** The Meta app secret that signs the webhooks (`X-Hub-Signature-256`), sealed by the SecretBox. */
  sealedAppSecret: string;
  /** SHA-256 (hex) of the verify token the provider's handshake presents; the token itself is never stored. */
  verifyTokenHash: string;
  /** The Graph API's base URL, e.g. `https://graph.facebook.com` (a local fake in tests). */
  graphBaseUrl: string;
  /** The Graph API version, e.g. `v21.0`. */
  apiVersion: string;
  /** The words that opt a person out when sent alone; null for the defaults. */
  optOutKeywords: string[] | null;
  /** The words that opt a person back in when sent alone; null for the defaults. */
  optInKeywords: string[] | null;
  createdAt: string;
  updatedAt: string;
}

export interface WhatsAppChannelRepository {
  /**
   * Inserts the workspace's channel or replaces it (one per workspace) and returns it as stored.
   * Fails with `conflict` when another workspace's channel has the same `phoneNumberId`.
   */
  put(channel: WhatsAppChannelRecord): Promise<WhatsAppChannelRecord>;
  get(workspaceId: string): Promise<WhatsAppChannelRecord | null>;
  /** The channels with any of these phone number ids (a webhook batch may name several). */
  findByPhoneNumberIds(phoneNumberIds: string[]): Promise<WhatsAppChannelRecord[]>;
  /** Whether any channel's verify token has this SHA-256 (one Meta app, one callback URL, one token, many numbers). */
  hasVerifyTokenHash(hash: string): Promise<boolean>;
  delete(workspaceId: string): Promise<boolean>;
}

/** What one webhook batch said about one provider message, folded: the earliest time per status. */
export interface StatusReport {
  providerMessageId: string;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  failedAt: string | null;
  failureCode: number | null;
  failureTitle: string | null;
}

/** A report as merged into what was stored: the message's state now, and whose message it is (when known). */
export interface RecordedStatus {
  providerMessageId: string;
  state: DeliveryState;
  /** The contact of the first message or thread message with this provider id; null when Vitrina has none (yet). */
  contactId: string | null;
}

export interface DeliveryReportRepository {
  /**
   * Merges every report into the stored state of its message, in one atomic step: each status keeps
   * its first timestamp (a duplicate or a late copy changes nothing), a failure keeps its first code,
   * and the status is derived from the timestamps (read > delivered > failed > sent), so concurrent
   * and out-of-order reports converge on one state. A report for a provider id no message carries
   * yet is kept all the same: the send's answer may commit after its first status arrives.
   */
  recordStatuses(workspaceId: string, reports: StatusReport[]): Promise<RecordedStatus[]>;
  get(workspaceId: string, providerMessageId: string): Promise<DeliveryState | null>;
  /**
   * Deletes at most `limit` reports last changed before `before` whose provider id no first message
   * and no thread message carries (statuses of messages sent outside Vitrina, or whose send was never
   * recorded); returns how many. Reports of Vitrina's messages stay: they are those messages' history.
   */
  purgeOrphans(before: string, limit: number): Promise<number>;
}

export interface ConsentLedgerRepository {
  /** Appends the entry; false (nothing written) when the workspace already has an entry with its `dedupeKey`. */
  append(entry: ConsentLedgerEntry): Promise<boolean>;
  /** The contact's entries, newest first (by `occurredAt`, then `recordedAt`), at most `limit`. */
  listByContact(workspaceId: string, contactId: string, options: { limit: number }): Promise<ConsentLedgerEntry[]>;
}

/** The contact repository's WhatsApp-channel methods (see `ContactRepository`). */
export interface WhatsAppContactMethods {
  /**
   * The contact an inbound webhook names, locked until the transaction ends (as `getForUpdate`): the
   * one with `candidate.whatsappUserId`, else the one with `candidate.phoneE164` (which then gets the
   * user id when it had none), else `candidate` inserted. Concurrent calls for one new person create
   * one contact. `candidate` has no consent and no opt-out.
   */
  resolveForInbound(candidate: ContactRecord): Promise<{ contact: ContactRecord; created: boolean }>;
  /** The contact with this business-scoped user id, or null. */
  findByWhatsAppUserId(workspaceId: string, userId: string): Promise<ContactRecord | null>;
  /**
   * Moves `whatsappLastInboundAt` forward to `at` (never back) and touches nothing else. Returns the
   * stored record, or null when it does not exist.
   */
  recordInbound(workspaceId: string, id: string, at: string): Promise<ContactRecord | null>;
  /**
   * Opts the contact back in: clears `whatsappOptedOutAt` when it is not after `at`, and moves
   * `whatsappResumedAt` forward to `at`. Returns the stored record, or null when it does not exist.
   */
  resumeWhatsApp(workspaceId: string, id: string, at: string): Promise<ContactRecord | null>;
}

/** The message repository's WhatsApp-channel methods (see `MessageRepository`). */
export interface WhatsAppMessageMethods {
  /** The workspace's message with this provider id (inbound, or one we sent), or null. */
  findByProviderId(workspaceId: string, providerMessageId: string): Promise<MessageRecord | null>;
  /** Records the provider id a sent message got; false when the message does not exist. */
  setProviderMessageId(workspaceId: string, id: string, providerMessageId: string): Promise<boolean>;
}
