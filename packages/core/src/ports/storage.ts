import type { CapabilityRepositories } from "./capability-storage.js";
import type { OrderRepository, PaymentRepository, QuoteRepository } from "./commerce-storage.js";
import type {
  ApiKeyRepository,
  WebhookAttemptRepository,
  WebhookDeliveryRepository,
  WebhookSubscriptionRepository,
} from "./webhook-storage.js";
import type { RetentionRepository } from "./retention-storage.js";
import type { PersonalDataRepository } from "./personal-data-storage.js";
import type { ConnectorRepository, WorkspaceRepository } from "./workspace-storage.js";
import type { ContactRepository } from "./contact-storage.js";
import type { LeadRepository, OpportunityRepository, OutboundMessageRepository } from "./lead-storage.js";
import type { ConversationRepository, MessageRepository } from "./conversation-storage.js";
import type { EventRepository } from "./event-storage.js";
import type { OAuthClientRepository, OAuthCodeRepository, OAuthTokenRepository } from "./oauth-storage.js";
import type { ApiKeyUsageRepository, ConnectorLeadRepository, ConnectorPageRepository } from "./admin-storage.js";
import type { MemberRepository } from "./member-storage.js";
import type {
  FirstMessageRetryRepository,
  LeadRefusalRepository,
  WorkspaceLeadRepository,
} from "./lead-operations-storage.js";
import type {
  ConsentLedgerRepository,
  DeliveryReportRepository,
  WhatsAppChannelRepository,
} from "./whatsapp-storage.js";

// One file per area; this one composes them. Import any repository type from here.
export type * from "./workspace-storage.js";
export type * from "./contact-storage.js";
export type * from "./lead-storage.js";
export type * from "./conversation-storage.js";
export type * from "./event-storage.js";
export type * from "./oauth-storage.js";
export type * from "./capability-storage.js";
export type * from "./commerce-storage.js";
export type * from "./webhook-storage.js";
export type * from "./retention-storage.js";
export type * from "./admin-storage.js";
export type * from "./member-storage.js";
export type * from "./whatsapp-storage.js";
export type * from "./personal-data-storage.js";
export type * from "./lead-operations-storage.js";

/**
 * The version of the Storage contract: the `Storage` interface and the behaviour the contract suite
 * in `@vitrina/core/testing` asserts. `Storage` is first-party and unstable: it changes in minor
 * releases while Vitrina is 0.x, and its docs carry domain rules every adapter must re-implement.
 * The stable seam is the driver `@vitrina/adapter-postgres` takes (`Queryable`: a pg Pool, PGlite,
 * any compatible client). A release that changes what an adapter must do bumps this number and says
 * so in its changeset, so an adapter can check it against the one it was written for.
 *
 * 2: `webhookSubscriptions.update(record)` became `patch(workspaceId, id, changes)` (targeted writes).
 * 3: `events.appendAndFindSubscribers(event)` became `appendAndFanOut(event, { retryUntil })`: the
 *    adapter writes the deliveries too (one round trip per event instead of one per subscriber).
 * 4: `outbound.update(record)` became `recordOutcome(outcome, thread?)`: only the provider's answer
 *    is written, and a message that went out joins (or opens) the contact's WhatsApp thread in the
 *    same atomic step.
 * 5: `webhookDeliveries.completeClaim(id, workerId, outcome, attempt?)` became
 *    `completeClaims(completions)`: a batch of finished attempts in one atomic step; and
 *    `claimDueDeliveries` returns each delivery with its event and subscription
 *    (`ClaimedDelivery`), which replaces `readEventsAndSubscriptions`.
 * 6: `leads.registerNewPerson(contact, lead, opportunity, outbound)`: a new person's lead registered
 *    in one atomic step without a transaction (one round trip on PostgreSQL instead of four).
 * 7: `registerNewPerson` takes the connector's `secretVersion` that verified the lead and writes
 *    nothing when the connector has moved on (lead intake verifies with a cached secret).
 * 8: `webhookSubscriptions.patch` honours `onlyIfUrl`: nothing is written unless the subscription
 *    has that URL, checked in the same statement (a 410 disables only the URL that answered it).
 * 9: `ClaimCompletion` carries the claim's `leaseUntil`, and `completeClaims` writes nothing unless
 *    the delivery still has that lease (not only that worker): the same worker may have claimed the
 *    delivery again after a completion stalled past its lease.
 * 10: `outbound.claimForSending` also requires the contact's `whatsappConsent` to be `granted: true`,
 *    read from the locked row in the same atomic step as the claim (a later lead that recorded
 *    `granted: false` stops a queued first message; no consent evidence stops it too).
 * 11: `WebhookDeliveryRecord.attemptsBeforeResend` (0 for a new delivery): `webhookDeliveries.reschedule`
 *    sets it to the delivery's `attemptCount` in the same atomic step as the resend, and the claim
 *    returns it. The backoff counts only the attempts after it, so a resend starts a fresh schedule.
 * 12: the WhatsApp channel: `whatsappChannels`, `deliveryReports` (per-status timestamps, attached
 *    to outbound and thread messages as `delivery`), `consentLedger`; contacts gain
 *    `resolveForInbound`, `findByWhatsAppUserId`, `recordInbound`, `resumeWhatsApp` (and
 *    `optOutOfWhatsApp` yields to a newer resume); messages gain provider ids
 *    (`findByProviderId`, `setProviderMessageId`); `opportunities.attributeNewest`; lead
 *    registration appends the lead's consent evidence to the ledger in the same atomic step;
 *    `deliveryReports.purgeOrphans` for retention.
 * 13: console sign-out is real: `workspaces.getMember` returns the membership's `sessionEpoch` (a new
 *    random one for every new membership, kept by a role change) and `workspaces.endSessions`
 *    replaces it, ending every console session signed in under the old one.
 * 14: a person's data on request: `personalData` (`exportPage` and `deliveriesOf` read one contact's
 *    rows page by page; `lockForErasure` and `erase` remove or redact them in one transaction and keep
 *    a `SuppressionEntry`; `findSuppression`, `listErasures`); `leads.registerNewPerson` takes the
 *    phone's keyed hash and writes nothing when it is suppressed; `retention.redactMessageTexts`, and
 *    `RetentionCutoffs` / `RetentionCounts` gain message texts.
 * 15: webhook subscriptions carry a `signatureScheme` (`vitrina` or `standard-webhooks`, set at
 *    insert, never patched) and a rolling rotation: `patch` with `sealedSecret` and
 *    `previousSecretExpiresAt` moves the stored secret to `previousSealedSecret` in the same atomic
 *    step; `sealedSecret` alone clears the previous one.
 * 16: what operators see of lead intake: `leadRefusals` (a ring of the newest refusals per known
 *    connector, purged by retention), `workspaceLeads` (every lead, filtered, newest first) and
 *    `firstMessageRetries.claimFailed` (a failed first message sent again under the contact's lock).
 */
export const STORAGE_CONTRACT_VERSION = 16;

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
  whatsappChannels: WhatsAppChannelRepository;
  deliveryReports: DeliveryReportRepository;
  consentLedger: ConsentLedgerRepository;
  personalData: PersonalDataRepository;
  leadRefusals: LeadRefusalRepository;
  workspaceLeads: WorkspaceLeadRepository;
  firstMessageRetries: FirstMessageRetryRepository;
}

/** The repositories bound to one open transaction. */
export type StorageTransaction = StorageRepositories;

/**
 * The Storage port. One small repository per concern; `transaction` hands the same repositories
 * bound to one unit of work. Uniqueness is the storage's job (unique keys), never check-then-insert:
 * methods named `insert…` report a conflict instead of throwing, so callers can be idempotent.
 *
 * The contract suite in `@vitrina/core/testing` is the definition of a correct adapter.
 */
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
