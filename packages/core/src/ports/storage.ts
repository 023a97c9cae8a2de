import type {
  ConnectorRecord,
  ContactRecord,
  ConversationRecord,
  ConversationStatus,
  EventRecord,
  LeadEventRecord,
  MemberRecord,
  MessageRecord,
  OpportunityRecord,
  OutboundMessageRecord,
  WorkspaceRecord,
} from "./records.js";
import type {
  OAuthAuthorizationCodeRecord,
  OAuthClientRecord,
  OAuthPurgeCounts,
  OAuthPurgeCutoffs,
  OAuthRefreshTokenRecord,
  OAuthTokenFamilyRecord,
} from "./oauth-records.js";
import type { CapabilityRepositories } from "./capability-storage.js";
import type { OrderRepository, PaymentRepository, QuoteRepository } from "./commerce-storage.js";
import type {
  ApiKeyRepository,
  WebhookAttemptRepository,
  WebhookDeliveryRepository,
  WebhookSubscriptionRepository,
} from "./webhook-storage.js";
import type { RetentionRepository } from "./retention-storage.js";
import type { ApiKeyUsageRepository, ConnectorLeadRepository, ConnectorPageRepository } from "./admin-storage.js";
import type { MemberRepository } from "./member-storage.js";

export type * from "./commerce-storage.js";
export type * from "./webhook-storage.js";
export type * from "./retention-storage.js";
export type * from "./admin-storage.js";
export type * from "./member-storage.js";

/**
 * The Storage port. One small repository per concern; `transaction` hands the same repositories
 * bound to one unit of work. Uniqueness is the storage's job (unique keys), never check-then-insert:
 * methods named `insert…` report a conflict instead of throwing, so callers can be idempotent.
 *
 * The contract suite in `@vitrina/core/testing` is the definition of a correct adapter.
 */
export interface WorkspaceRepository {
  insert(workspace: WorkspaceRecord): Promise<void>;
  get(id: string): Promise<WorkspaceRecord | null>;
  upsertMember(member: MemberRecord): Promise<void>;
  getMember(workspaceId: string, userId: string): Promise<MemberRecord | null>;
  /** The workspaces `userId` is a member of, with that member's role, oldest first (console listing). */
  listForUser(userId: string): Promise<Array<WorkspaceRecord & { role: MemberRecord["role"] }>>;
}

export interface ConnectorRepository {
  /** Fails with `conflict` when (workspaceId, systemId) is taken. */
  insert(connector: ConnectorRecord): Promise<void>;
  get(id: string): Promise<ConnectorRecord | null>;
  listByWorkspace(workspaceId: string): Promise<ConnectorRecord[]>;
  /** Replaces the sealed secret and bumps `secretVersion`; returns the updated record. */
  updateSecret(id: string, sealedSecret: string, rotatedAt: string): Promise<ConnectorRecord | null>;
}

export interface ContactRepository {
  /**
   * Inserts unless the workspace already has a contact with this phone; either way returns the
   * stored contact and whether it was created.
   */
  insertOrGetByPhone(contact: ContactRecord): Promise<{ contact: ContactRecord; created: boolean }>;
  get(workspaceId: string, id: string): Promise<ContactRecord | null>;
  findByPhone(workspaceId: string, phoneE164: string): Promise<ContactRecord | null>;
  findByEmail(workspaceId: string, email: string): Promise<ContactRecord | null>;
  /**
   * Reads the contact and locks it until the transaction ends (PostgreSQL: `SELECT … FOR UPDATE`),
   * so a decision taken on it (send or not, which fields to fill) cannot be undercut by a
   * concurrent opt-out. Only meaningful inside `transaction`; adapters that run one transaction at
   * a time return the row as `get` does.
   */
  getForUpdate(workspaceId: string, id: string): Promise<ContactRecord | null>;
  /**
   * Sets only the columns in `changes` (and `updatedAt`); every other column keeps whatever it
   * holds at that moment, including values a concurrent transaction wrote after this one read the
   * row. Returns the stored record, or null when it does not exist. Fails with `conflict` when the
   * new phone belongs to another contact of the workspace.
   */
  patch(workspaceId: string, id: string, changes: ContactPatch, updatedAt: string): Promise<ContactRecord | null>;
  /**
   * Fills `name` / `email` only where the stored value is null, in one statement (never overwrites,
   * never clears). Returns the stored record, or null when it does not exist.
   */
  fillMissing(
    workspaceId: string,
    id: string,
    fields: { name: string | null; email: string | null },
    updatedAt: string,
  ): Promise<ContactRecord | null>;
  /**
   * Records an opt-out: sets `whatsappOptedOutAt` unless it is already set (the first opt-out
   * wins) and touches nothing else. Returns the stored record, or null when it does not exist.
   */
  optOutOfWhatsApp(workspaceId: string, id: string, at: string): Promise<ContactRecord | null>;
  /**
   * Writes the whole record (by id); returns false when it does not exist. It overwrites every
   * column with what the caller read, so under concurrency it can erase a value written meanwhile:
   * core uses `patch`, `fillMissing` and `optOutOfWhatsApp` instead. Only for tests and tools that
   * hold the row locked (`getForUpdate`).
   */
  update(contact: ContactRecord): Promise<boolean>;
  /**
   * Contacts whose name or email contains `query` (case-insensitive), or whose phone contains its
   * digits (spaces, dashes and parentheses ignored). Oldest first, at most `limit`.
   */
  search(workspaceId: string, query: string, options: { limit: number }): Promise<ContactRecord[]>;
}

/** The contact columns `ContactRepository.patch` may set; absent keys are left alone. */
export type ContactPatch = Partial<Pick<ContactRecord, "name" | "phoneE164" | "email" | "tags" | "whatsappConsent">>;

export interface LeadRepository {
  /** Inserts unless (connectorId, sourceLeadId) exists; `false` means it was a duplicate. */
  insertIfNew(lead: LeadEventRecord): Promise<boolean>;
  findBySourceId(connectorId: string, sourceLeadId: string): Promise<LeadEventRecord | null>;
  get(id: string): Promise<LeadEventRecord | null>;
  countByWorkspace(workspaceId: string): Promise<number>;
}

export interface OpportunityRepository {
  insert(opportunity: OpportunityRecord): Promise<void>;
  get(id: string): Promise<OpportunityRecord | null>;
  listByContact(contactId: string): Promise<OpportunityRecord[]>;
}

export interface OutboundMessageRepository {
  insert(message: OutboundMessageRecord): Promise<void>;
  findByLeadEvent(leadEventId: string): Promise<OutboundMessageRecord | null>;
  update(message: OutboundMessageRecord): Promise<boolean>;
  listByWorkspace(workspaceId: string): Promise<OutboundMessageRecord[]>;
  /**
   * The contact's most recent first message that is `queued` or `sent` and was created at or after
   * `since` (blocked and failed ones never reached the person). Null when there is none.
   */
  findLatestLiveByContact(workspaceId: string, contactId: string, since: string): Promise<OutboundMessageRecord | null>;
  /**
   * The send lease's compare-and-set: applies `change` only to a message still `queued` that was
   * never handed to the provider (`handedToProviderAt` null) and returns the stored record; null
   * when it is not (another process claimed or settled it first). Of two concurrent claims exactly
   * one gets the record, so a first message is handed to the provider at most once.
   */
  claimUnsent(id: string, change: UnsentMessageChange): Promise<OutboundMessageRecord | null>;
  /**
   * Marks a message `failed` with `reason` only while it is still in flight (`queued`, handed to
   * the provider, no answer recorded); false when its outcome was recorded meanwhile.
   */
  failInFlight(id: string, reason: string, at: string): Promise<boolean>;
  /**
   * `queued` messages without a provider answer, across workspaces, oldest first, at most `limit`:
   * handed to the provider at or before `before` (the send lease passed), or never handed and
   * created at or before `before`.
   */
  listUnsettled(before: string, limit: number): Promise<OutboundMessageRecord[]>;
}

/** What `claimUnsent` may set: hand the message over (status stays `queued`), or settle it unsent. */
export type UnsentMessageChange =
  | { status: "queued"; reason: string; handedToProviderAt: string; updatedAt: string }
  | { status: "blocked" | "failed"; reason: string; handedToProviderAt: null; updatedAt: string };

export interface ConversationRepository {
  insert(conversation: ConversationRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<ConversationRecord | null>;
  /** Most recently updated first. */
  listByWorkspace(
    workspaceId: string,
    options?: { status?: ConversationStatus; limit?: number },
  ): Promise<ConversationRecord[]>;
  update(conversation: ConversationRecord): Promise<boolean>;
  /**
   * The contact's conversation on `channel` that is not closed (`open` or `pending`), newest
   * first, or null. On `whatsapp` there is at most one: a unique rule refuses a second with
   * `conflict` (insert, or an update that reopens one).
   */
  findActive(workspaceId: string, contactId: string, channel: string): Promise<ConversationRecord | null>;
  /** Sets only `updatedAt` (a new message arrived); false when it does not exist. */
  touch(workspaceId: string, id: string, updatedAt: string): Promise<boolean>;
  /**
   * Marks the conversation `pending` with `escalatedAt = at` only if it was never escalated, in one
   * conditional write, so of two concurrent escalations exactly one wins. Returns the escalated
   * record, or null when it does not exist or was already escalated (read it to tell which).
   */
  escalate(workspaceId: string, id: string, at: string): Promise<ConversationRecord | null>;
}

export interface MessageRepository {
  insert(message: MessageRecord): Promise<void>;
  /** Most recent first. */
  listByConversation(conversationId: string, options?: { limit?: number }): Promise<MessageRecord[]>;
  /** Removes a message recorded before a send the provider then refused; false when it does not exist. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export interface EventRepository {
  append(event: EventRecord): Promise<void>;
  get(id: string): Promise<EventRecord | null>;
  /** Oldest first. */
  listByWorkspace(workspaceId: string, options?: { type?: string }): Promise<EventRecord[]>;
}

export interface OAuthClientRepository {
  insert(client: OAuthClientRecord): Promise<void>;
  get(id: string): Promise<OAuthClientRecord | null>;
  /** Sets `approvedAt` unless already set (the first approval wins). */
  markApproved(id: string, approvedAt: string): Promise<void>;
}

export interface OAuthCodeRepository {
  insert(code: OAuthAuthorizationCodeRecord): Promise<void>;
  get(codeHash: string): Promise<OAuthAuthorizationCodeRecord | null>;
  /**
   * Marks the code used and returns it, only if it was unused: of two concurrent exchanges of
   * one code exactly one gets the record (an atomic `UPDATE … WHERE used_at IS NULL`).
   */
  markUsed(codeHash: string, usedAt: string): Promise<OAuthAuthorizationCodeRecord | null>;
}

export interface OAuthTokenRepository {
  insertFamily(family: OAuthTokenFamilyRecord): Promise<void>;
  getFamily(id: string): Promise<OAuthTokenFamilyRecord | null>;
  /** Sets `revokedAt` unless already revoked; false when the family does not exist. */
  revokeFamily(id: string, revokedAt: string): Promise<boolean>;
  insertRefreshToken(token: OAuthRefreshTokenRecord): Promise<void>;
  getRefreshToken(tokenHash: string): Promise<OAuthRefreshTokenRecord | null>;
  /** Like `OAuthCodeRepository.markUsed`: returns the token only to the one caller that used it first. */
  markRefreshTokenUsed(tokenHash: string, usedAt: string): Promise<OAuthRefreshTokenRecord | null>;
  /**
   * Deletes what no longer serves a purpose (see `OAuthPurgeCutoffs`): expired codes, expired
   * refresh tokens, revoked or ended grants with their refresh tokens, unapproved old clients.
   */
  purgeExpired(cutoffs: OAuthPurgeCutoffs): Promise<OAuthPurgeCounts>;
}

export interface StorageRepositories extends CapabilityRepositories {
  workspaces: WorkspaceRepository;
  connectors: ConnectorRepository;
  contacts: ContactRepository;
  leads: LeadRepository;
  opportunities: OpportunityRepository;
  outbound: OutboundMessageRepository;
  conversations: ConversationRepository;
  messages: MessageRepository;
  events: EventRepository;
  quotes: QuoteRepository;
  orders: OrderRepository;
  payments: PaymentRepository;
  apiKeys: ApiKeyRepository;
  webhookSubscriptions: WebhookSubscriptionRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  webhookAttempts: WebhookAttemptRepository;
  oauthClients: OAuthClientRepository;
  oauthCodes: OAuthCodeRepository;
  oauthTokens: OAuthTokenRepository;
  retention: RetentionRepository;
  members: MemberRepository;
  connectorPages: ConnectorPageRepository;
  apiKeyUsage: ApiKeyUsageRepository;
  connectorLeads: ConnectorLeadRepository;
}

/** The repositories bound to one open transaction. */
export type StorageTransaction = StorageRepositories;

export interface Storage extends StorageRepositories {
  /**
   * Runs `work` in one unit of work: everything it writes through `tx` commits together when it
   * resolves, and nothing does when it throws (the error is rethrown). Do not use the outer
   * repositories inside `work`; some adapters hold a single connection and would deadlock.
   */
  transaction<T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T>;
  /**
   * The cheapest round trip that proves the storage answers (PostgreSQL: `SELECT 1`); rejects
   * when it can't, e.g. once closed. `/readyz` calls it under a timeout.
   */
  ping(): Promise<void>;
  /** Releases connections; the storage is unusable afterwards. */
  close(): Promise<void>;
  /**
   * Optional cross-process wake-up for outbox workers: calls `listener` after any process committed
   * new or rescheduled webhook deliveries (PostgreSQL: LISTEN/NOTIFY). Resolves to an unsubscribe.
   * Adapters without it leave other processes' workers to their sweep.
   */
  listenForDeliveries?(listener: () => void): Promise<() => Promise<void>>;
}
