import type { ConsoleHost } from "./admin/console-host.js";
import { createApiKeyAdmin } from "./admin/api-key-admin.js";
import { createConnectorAdmin } from "./admin/connector-admin.js";
import { createContactAdmin } from "./admin/contact-admin.js";
import { createMemberAdmin } from "./admin/member-admin.js";
import { createLeadAdmin } from "./admin/lead-admin.js";
import { createWhatsAppChannelAdmin } from "./admin/whatsapp-channel-admin.js";
import { createApiKeyService } from "./auth/api-keys.js";
import { createCapabilityService } from "./capabilities/capability-service.js";
import { channelRoutingTransport, createChannelCache } from "./channels/whatsapp/channel-cache.js";
import { createWhatsAppChannelService } from "./channels/whatsapp/channel-service.js";
import { createOrderService } from "./commerce/order-service.js";
import { createQuoteService, defaultVatRate } from "./commerce/quote-service.js";
import { createConnectorService } from "./connectors/connector-service.js";
import { createContactService } from "./contacts/contact-service.js";
import { createConversationService } from "./conversations/conversation-service.js";
import { createLeadIntake } from "./leads/lead-intake.js";
import { defaultVerticals } from "./leads/qualification.js";
import { createLeadSignatureVerifier } from "./leads/verify-lead-signature.js";
import { createPrivacyService } from "./privacy/privacy-service.js";
import { suppressionHasher } from "./privacy/suppression-hash.js";
import type { ResolvedOptions } from "./resolved-options.js";
import type { VitrinaOptions } from "./vitrina-options.js";
import { createOutbox } from "./webhooks/create-outbox.js";
import { createTestDelivery } from "./webhooks/test-delivery.js";
import { createWorkspaceService } from "./workspaces/workspace-service.js";

/**
 * The domain services over the embedder's storage and transports, before any route: what
 * `createVitrina` returns and what its surfaces serve. No HTTP here.
 */
export function createDomainServices(options: VitrinaOptions, resolved: ResolvedOptions) {
  const { clock, ids, logger, secretBox } = resolved;
  // The outbox wraps storage so commits that add deliveries wake the workers.
  const outbox = createOutbox({
    storage: options.storage,
    secretBox,
    clock,
    ids,
    logger,
    headerPrefix: resolved.headerPrefix,
    options: options.webhooks ?? {},
    // Without a configured logger this one warning still reaches the console: it names a setup mistake.
    warnLoudly:
      options.logger === undefined
        ? (message) => console.warn(`vitrina: ${message}`)
        : (message, requestLogger) => (requestLogger ?? logger).warn(message),
  });
  const storage = outbox.storage;

  // Per-workspace WhatsApp numbers: a workspace whose channel holds an access token sends through
  // it; the rest through `options.messaging`.
  const channelCache = createChannelCache({
    storage,
    secretBox,
    ...(options.whatsapp?.post && { post: options.whatsapp.post }),
    ...(options.whatsapp?.fetch && { fetch: options.whatsapp.fetch }),
  });
  const messaging = channelRoutingTransport(channelCache, options.messaging);
  const whatsappChannels = createWhatsAppChannelService({
    storage,
    secretBox,
    clock,
    onChange: (workspaceId) => channelCache.forget(workspaceId),
  });

  const contacts = createContactService({ storage, clock, ids });
  const suppression = suppressionHasher(secretBox);
  const privacy = createPrivacyService({ storage, clock, ids, logger, hasher: suppression });
  const verifier = createLeadSignatureVerifier({
    connectors: storage.connectors,
    secretBox,
    clock,
    toleranceMs: resolved.leadIntake.toleranceMs,
    headerNames: resolved.leadHeaders,
  });
  const leads = createLeadIntake({
    storage,
    messaging,
    verifier,
    clock,
    ids,
    logger,
    firstMessage: resolved.firstMessage,
    verticals: options.leadIntake?.verticals ?? defaultVerticals,
    consentClockSkewMs: options.leadIntake?.consentClockSkewMs,
    suppression,
  });
  const capabilities = createCapabilityService({
    storage,
    clock,
    ids,
    inventoryProviders: options.inventoryProviders ?? [],
    policies: options.policies ?? [],
    options: {
      ...options.capabilities,
      mcpUrl: resolved.urls.mcp,
      ...(resolved.urls.rest !== undefined && { restUrl: resolved.urls.rest }),
      ...(resolved.urls.a2a !== undefined && { a2a: resolved.urls.a2a }),
    },
  });
  return {
    outbox,
    storage,
    messaging,
    channelCache,
    whatsappChannels,
    workspaces: createWorkspaceService({ storage, clock, ids }),
    connectors: createConnectorService({ storage, secretBox, clock, ids }),
    contacts,
    suppression,
    privacy,
    leads,
    capabilities,
    apiKeys: createApiKeyService({ storage, clock, ids }),
    conversations: createConversationService({ storage, clock, ids, messaging }),
    quotes: createQuoteService({ storage, clock, ids, vatRate: options.quotes?.vatRate ?? defaultVatRate }),
    orders: createOrderService({ storage, clock, ids }),
    admin: {
      connectors: createConnectorAdmin({ storage, secretBox, clock, ids }),
      apiKeys: createApiKeyAdmin({ storage, clock, ids }),
      members: createMemberAdmin({ storage, clock }),
      whatsappChannel: createWhatsAppChannelAdmin({ channels: whatsappChannels }),
      contacts: createContactAdmin({ contacts, privacy, clock }),
      leads: createLeadAdmin({
        storage,
        messaging,
        clock,
        ids,
        logger,
        firstMessage: resolved.firstMessage,
        refusalsKept: resolved.leadRefusals.keepPerConnector,
      }),
    },
    // Through the outbox's storage, so the commit wakes the workers like any event's deliveries.
    sendTestDelivery: createTestDelivery({ storage, clock, ids }),
  };
}
export type DomainServices = ReturnType<typeof createDomainServices>;

/** What the web console is mounted with: the admin API's own services, so a rule lives in core once for both. */
export function consoleHost(services: DomainServices, resolved: ResolvedOptions): ConsoleHost {
  return {
    storage: services.storage,
    secretBox: resolved.secretBox,
    clock: resolved.clock,
    logger: resolved.logger,
    mount: resolved.mount,
    headerNames: resolved.leadHeaders,
    connectors: services.admin.connectors,
    apiKeys: services.admin.apiKeys,
    members: services.admin.members,
    webhooks: services.outbox.subscriptions,
    sendTestDelivery: services.sendTestDelivery,
    contacts: services.contacts,
    privacy: services.privacy,
    whatsappChannels: services.whatsappChannels,
    leads: services.admin.leads,
  };
}
