import type {
  ConsentLedgerEntry,
  DeliveryState,
  ConnectorRecord,
  ContactRecord,
  ConversationRecord,
  EventRecord,
  LeadEventRecord,
  MemberWithSessions,
  MessageRecord,
  OpportunityRecord,
  OutboundMessageRecord,
  WorkspaceRecord,
} from "@vitrina/core";
import type {
  OAuthAuthorizationCodeRecord,
  OAuthClientRecord,
  OAuthRefreshTokenRecord,
  OAuthTokenFamilyRecord,
  OrderRecord,
  PaymentRecord,
  QuoteRecord,
  ApiKeyRecord,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookSubscriptionRecord,
  WhatsAppChannelRecord,
  ErasureRecord,
  SuppressionEntry,
} from "@vitrina/core/storage";
import { createCapabilityTables } from "./capability-state.js";
import { MemoryTable } from "./table.js";
import { createLeadOperationTables } from "./lead-operation-repositories.js";

/** All tables of one memory storage. Unique indexes mirror the PostgreSQL schema's constraints. */
export function createMemoryState() {
  return {
    workspaces: new MemoryTable<WorkspaceRecord>((w) => w.id),
    members: new MemoryTable<MemberWithSessions>((m) => `${m.workspaceId}/${m.userId}`),
    // What PostgreSQL keeps in workspace_members.email / added_at, beside the role rows above.
    memberInvites: new MemoryTable<{ workspaceId: string; userId: string; email: string | null; addedAt: string }>(
      (m) => `${m.workspaceId}/${m.userId}`,
    ),
    apiKeyUsage: new MemoryTable<{ keyId: string; lastUsedAt: string }>((u) => u.keyId),
    connectors: new MemoryTable<ConnectorRecord>((c) => c.id, {
      systemId: (c) => `${c.workspaceId}/${c.systemId}`,
    }),
    contacts: new MemoryTable<ContactRecord>(
      (c) => c.id,
      {
        phone: (c) => (c.phoneE164 === null ? null : `${c.workspaceId}/${c.phoneE164}`),
        whatsappUser: (c) => (c.whatsappUserId === undefined ? null : `${c.workspaceId}/${c.whatsappUserId}`),
      },
      { email: (c) => (c.email === null ? null : `${c.workspaceId}/${c.email.toLowerCase()}`) },
    ),
    leads: new MemoryTable<LeadEventRecord>((l) => l.id, {
      source: (l) => `${l.connectorId}/${l.sourceLeadId}`,
    }),
    opportunities: new MemoryTable<OpportunityRecord>((o) => o.id),
    outbound: new MemoryTable<OutboundMessageRecord>(
      (m) => m.id,
      { lead: (m) => m.leadEventId },
      {
        contact: (m) => m.contactId,
        provider: (m) => (m.providerMessageId === null ? null : `${m.workspaceId}/${m.providerMessageId}`),
      },
    ),
    conversations: new MemoryTable<ConversationRecord>(
      (c) => c.id,
      {
        // Mirrors PostgreSQL's partial unique index: one WhatsApp conversation not closed per contact.
        activeWhatsapp: (c) => (c.channel === "whatsapp" && c.status !== "closed" ? c.contactId : null),
      },
      { contact: (c) => c.contactId },
    ),
    messages: new MemoryTable<MessageRecord>(
      (m) => m.id,
      { provider: (m) => (m.providerMessageId === undefined ? null : `${m.workspaceId}/${m.providerMessageId}`) },
      { conversation: (m) => m.conversationId },
    ),
    whatsappChannels: new MemoryTable<WhatsAppChannelRecord>((c) => c.workspaceId, {
      phoneNumberId: (c) => c.phoneNumberId,
    }),
    deliveryStates: new MemoryTable<{
      workspaceId: string;
      providerMessageId: string;
      state: DeliveryState;
      updatedAt: string;
    }>((d) => `${d.workspaceId}/${d.providerMessageId}`),
    consentLedger: new MemoryTable<ConsentLedgerEntry>(
      (e) => e.id,
      { dedupe: (e) => (e.dedupeKey === null ? null : `${e.workspaceId}/${e.dedupeKey}`) },
      { contact: (e) => e.contactId },
    ),
    events: new MemoryTable<EventRecord>((e) => e.id),
    oauthClients: new MemoryTable<OAuthClientRecord>((c) => c.id),
    oauthCodes: new MemoryTable<OAuthAuthorizationCodeRecord>((c) => c.codeHash),
    oauthFamilies: new MemoryTable<OAuthTokenFamilyRecord>((f) => f.id),
    oauthRefreshTokens: new MemoryTable<OAuthRefreshTokenRecord>((t) => t.tokenHash),
    ...createCapabilityTables(),
    quotes: new MemoryTable<QuoteRecord>((q) => q.id),
    orders: new MemoryTable<OrderRecord>((o) => o.id, { quote: (o) => o.quoteId }),
    payments: new MemoryTable<PaymentRecord>((p) => p.id, {
      reference: (p) => (p.providerReference === null ? null : `${p.workspaceId}/${p.providerReference}`),
    }),
    apiKeys: new MemoryTable<ApiKeyRecord>((k) => k.id, { hash: (k) => k.hash }),
    webhookSubscriptions: new MemoryTable<WebhookSubscriptionRecord>((s) => s.id),
    webhookDeliveries: new MemoryTable<WebhookDeliveryRecord>(
      (d) => d.id,
      { eventSubscription: (d) => `${d.eventId}/${d.subscriptionId}` },
      // Claims look only at pending deliveries, however long the delivered history grows.
      { status: (d) => d.status },
    ),
    webhookAttempts: new MemoryTable<WebhookAttemptRecord>((a) => a.id),
    // Keyed by position: several erasures may keep entries for the same hashes.
    suppressions: new MemoryTable<SuppressionEntry & { key: string }>((e) => e.key),
    erasures: new MemoryTable<ErasureRecord>((e) => e.id),
    ...createLeadOperationTables(),
  };
}
export type MemoryState = ReturnType<typeof createMemoryState>;
