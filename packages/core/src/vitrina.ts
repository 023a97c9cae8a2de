import { createCapabilityService, type CapabilityOptions } from "./capabilities/capability-service.js";
import type { CapabilityPolicy } from "./capabilities/policies.js";
import { wholeNumberOption } from "./capabilities/whole-number-option.js";
import { createConnectorService } from "./connectors/connector-service.js";
import { createContactService } from "./contacts/contact-service.js";
import { createPrivacyService } from "./privacy/privacy-service.js";
import { suppressionHasher } from "./privacy/suppression-hash.js";
import { leadIntakeRoute } from "./leads/lead-intake-route.js";
import { createRouter, type Handler, type Route } from "./http/router.js";
import { resolveMount, type MountOptions } from "./http/mount.js";
import { checkOptionShapes } from "./options-shape.js";
import { defaultFirstMessage, type FirstMessageOptions } from "./leads/first-message.js";
import { createLeadIntake } from "./leads/lead-intake.js";
import { defaultVerticals, type VerticalDefinitions } from "./leads/qualification.js";
import { createLeadSignatureVerifier } from "./leads/verify-lead-signature.js";
import { checkLeadIntakeLimits } from "./leads/lead-intake-limits.js";
import type { OAuthOptions } from "./oauth/oauth-options.js";
import { createOAuthServer } from "./oauth/oauth-routes.js";
import { authorizationServerMetadataUrl, protectedResourceMetadataUrl, type OAuthUrls } from "./oauth/oauth-urls.js";
import { purgeExpiredOAuthRecords } from "./oauth/purge-records.js";
import { mcpRoutes } from "./mcp/mcp-route.js";
import { restRoutes } from "./rest/rest-routes.js";
import { REST_PATH, type RestOptions } from "./rest/rest-options.js";
import { openApiRoute } from "./rest/openapi-route.js";
import { a2aSurface } from "./a2a/a2a-surface.js";
import { A2A_PATH, AGENT_CARD_PATH, type A2aOptions } from "./a2a/a2a-options.js";
import { publicJsonRoute } from "./http/public-json-route.js";
import { shuttingDownResponse } from "./http/json.js";
import { eventSchemasDocument } from "./events/event-schemas.js";
import type { McpOptions } from "./mcp/mcp-options.js";
import { systemClock, type Clock } from "./ports/clock.js";
import { randomUuid, type IdGenerator } from "./ports/ids.js";
import { type Logger } from "./ports/logger.js";
import { defaultLogger } from "./logging/loggers.js";
import type { InventoryProvider } from "./ports/inventory.js";
import type { MessagingTransport } from "./ports/messaging.js";
import { type SecretBox } from "./ports/secret-box.js";
import { createAesGcmSecretBox } from "./crypto/aes-gcm-secret-box.js";
import type { Storage } from "./ports/storage.js";
import { createWorkspaceService } from "./workspaces/workspace-service.js";
import { createOutbox, type WebhookOptions } from "./webhooks/create-outbox.js";
import { createApiKeyService } from "./auth/api-keys.js";
import type { Authenticator } from "./auth/principal.js";
import { firstOf } from "./auth/principal.js";
import { createConversationService } from "./conversations/conversation-service.js";
import { createQuoteService, defaultVatRate, type VatRate } from "./commerce/quote-service.js";
import { createOrderService } from "./commerce/order-service.js";
import { webhookRoutes } from "./webhooks/webhook-routes.js";
import { createTestDelivery } from "./webhooks/test-delivery.js";
import { adminRoutes } from "./admin/admin-routes.js";
import { createContactAdmin } from "./admin/contact-admin.js";
import { createWhatsAppChannelAdmin } from "./admin/whatsapp-channel-admin.js";
import { createConnectorAdmin } from "./admin/connector-admin.js";
import { createApiKeyAdmin } from "./admin/api-key-admin.js";
import { createMemberAdmin } from "./admin/member-admin.js";
import { healthRoutes, type HealthOptions } from "./http/health-routes.js";
import { consoleRoutes } from "./console/console-routes.js";
import type { ConsoleOptions } from "./console/console-options.js";
import { withRequestId } from "./http/request-context.js";
import { acceptsDirectBody } from "./http/direct-body.js";
import { bodyAlreadyRead, bodyAlreadyReadResponse, MOUNT_BEFORE_BODY_PARSERS } from "./http/consumed-body.js";
import { resolveFirstMessageRecovery, type FirstMessageRecoveryOptions } from "./leads/reconcile-first-messages.js";
import { createMaintenance, type WorkerOptions } from "./maintenance/maintenance.js";
import {
  createLeadRefusalRecorder,
  leadRefusalRetentionStep,
  resolveLeadRefusals,
  type LeadRefusalOptions,
} from "./leads/lead-refusals.js";
import { createLeadAdmin } from "./admin/lead-admin.js";
import { resolveRetention, type RetentionOptions, type RetentionStep } from "./maintenance/retention.js";
import { channelRoutingTransport, createChannelCache } from "./channels/whatsapp/channel-cache.js";
import type { GraphPost } from "./messaging/whatsapp-cloud.js";
import { createWhatsAppChannelService } from "./channels/whatsapp/channel-service.js";
import {
  DEFAULT_WHATSAPP_WEBHOOK_BODY_LIMIT,
  WHATSAPP_WEBHOOK_PATH,
  whatsAppWebhookRoutes,
} from "./channels/whatsapp/webhook-route.js";

/**
 * One retention step for every OAuth record kind, in batches of the run's `batchSize` per kind (a
 * backlog of abandoned registrations in one statement could outlast the statement timeout, and
 * then never be purged); the report counts the kinds together.
 */
const oauthPurgeStep: RetentionStep["run"] = async ({ storage, now, batchSize, withinBudget }) => {
  let removed = 0;
  for (;;) {
    const purged = await purgeExpiredOAuthRecords(storage, now, { limit: batchSize });
    removed += purged.codes + purged.grants + purged.refreshTokens + purged.clients;
    const full = Math.max(purged.codes, purged.grants, purged.refreshTokens, purged.clients) >= batchSize;
    if (!full || !withinBudget()) return removed;
  }
};

/**
 * Delivery reports no message of Vitrina's carries, once the provider can no longer redeliver a
 * status that would join one (it retries for 7 days; 8 leaves a margin): otherwise the statuses of
 * messages sent outside Vitrina on a shared number would pile up forever.
 */
const orphanStatusesStep: RetentionStep["run"] = async ({ storage, now, batchSize, withinBudget }) => {
  const before = new Date(now.getTime() - 8 * 24 * 3600_000).toISOString();
  let removed = 0;
  for (;;) {
    const purged = await storage.deliveryReports.purgeOrphans(before, batchSize);
    removed += purged;
    if (purged < batchSize || !withinBudget()) return removed;
  }
};

export interface VitrinaOptions extends MountOptions {
  storage: Storage;
  /**
   * Sends WhatsApp messages for workspaces without a channel of their own that holds an access
   * token (see `whatsAppCloudTransport`, and `whatsapp.channels` for per-workspace numbers).
   */
  messaging: MessagingTransport;
  /** The WhatsApp channel's webhook (`POST /functions/v1/whatsapp-webhook`). See the core README, "WhatsApp channel". */
  whatsapp?: {
    /** Largest accepted webhook body in bytes. Default 4194304 (4 MiB: the provider sends up to 3 MB). */
    maxBodyBytes?: number;
    /** How channels POST to the Graph API: `nodeWhatsAppOptions()` from `@vitrina/http-node` passes undici's request API. Default: `fetch`. */
    post?: GraphPost;
    /** The `fetch` the default `post` uses (tests, proxies). Default the global one. */
    fetch?: typeof fetch;
  };
  /** Seals connector secrets at rest: a SecretBox, or a 32-byte AES key (base64) for the built-in one. */
  secretBox: SecretBox | string;
  clock?: Clock;
  ids?: IdGenerator;
  /**
   * Where Vitrina writes what it does (pino's `(fields, message)` order, so `pino()` plugs in).
   * Default: warnings and errors as JSON lines on stderr. See the README's "Operating Vitrina".
   */
  logger?: Logger;
  /**
   * Serves `GET /healthz` and `GET /readyz` for probes; off unless `true` or options are given.
   * See the README's "Operating Vitrina".
   */
  health?: boolean | HealthOptions;
  /** Replaces `Vitrina` in header names: `X-<prefix>-Timestamp`, `<prefix>-Signature`. */
  headerPrefix?: string;
  /** Capability runtime and catalog: attempt lease, MCP address in the catalog, extra capabilities. */
  capabilities?: CapabilityOptions;
  /** External stock sources `inventory.check` asks besides the native catalog (ERP, e-commerce). */
  inventoryProviders?: InventoryProvider[];
  /** Evaluated before every command capability; the first to block leaves a task for a person. */
  policies?: CapabilityPolicy[];
  /** Outgoing webhooks: destination policy, timeouts, retries. See the core README, "Webhooks". */
  webhooks?: WebhookOptions;
  quotes?: {
    /** VAT as a fraction, or per workspace. Default 0.19 for CLP workspaces, 0 otherwise. */
    vatRate?: VatRate;
  };
  /**
   * Extra authenticators tried after API keys on bearer-protected routes (e.g. an OAuth 2.1
   * token verifier). Each returns a principal or null.
   */
  authenticators?: Authenticator[];
  leadIntake?: {
    /** Largest accepted lead body in bytes. Default 65536 (64 KiB). */
    maxBodyBytes?: number;
    /** Replay window in either direction. Default 300000 (5 minutes). */
    toleranceMs?: number;
    /** How far in the future `whatsapp_consent.timestamp` may be (sender clock skew); later is refused with 422. Default 300000 (5 minutes). */
    consentClockSkewMs?: number;
    firstMessage?: FirstMessageOptions;
    /** How the worker settles first messages a crash left `queued` (see the core README, "Stuck first messages"). */
    firstMessageRecovery?: FirstMessageRecoveryOptions;
    /** Qualification fields per vertical. Default: real_estate → monthly_income (currency). */
    verticals?: VerticalDefinitions;
    /** The log of refused leads per connector (see the core README, "Refused leads"). */
    refusals?: LeadRefusalOptions;
  };
  /** The OAuth 2.1 authorization server for MCP clients; off unless given (see the README's OAuth 2.1 section). */
  oauth?: OAuthOptions;
  /** The MCP server at `/mcp`: authentication, allowed origins, financial tools, canonical names. */
  mcp?: McpOptions;
  /**
   * The REST surface: `{ enabled: true }` serves every capability at `/v1/rest/{capability}` (API keys,
   * same scopes and runtime as MCP) and reports it in the catalog. Off by default.
   */
  rest?: RestOptions;
  /**
   * The A2A surface: `{ enabled: true }` serves an agent card at `/.well-known/agent-card.json` and
   * `SendMessage` at `/a2a` (API keys or OAuth tokens for `/a2a`, same runtime as MCP and REST) and
   * reports it in the catalog. Off by default.
   */
  a2a?: A2aOptions;
  /**
   * The web console at `<basePath>/console` (connectors, webhooks, API keys, members): your
   * `signIn` hook says who the user is. Off unless given. See the core README, "Web console".
   */
  console?: ConsoleOptions;
  /** What the worker deletes or redacts, and when (see the core README, "Retention"); `false` turns it off. */
  retention?: RetentionOptions | false;
}

export const DEFAULT_LEAD_BODY_LIMIT = 64 * 1024;
export const DEFAULT_LEAD_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * The composition root: wires the domain services over your storage and transports, and returns
 * them with one web-standard `handler` that serves every route.
 *
 * ```ts
 * const vitrina = createVitrina({ storage: memoryStorage(), messaging, secretBox: process.env.VITRINA_SECRET_KEY! });
 * await serveVitrina(vitrina, { port: 8787 }); // from @vitrina/http-node: server + webhook worker
 * ```
 */
export function createVitrina(options: VitrinaOptions) {
  checkOptionShapes(options);
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomUuid;
  const logger = options.logger ?? defaultLogger;
  const secretBox =
    typeof options.secretBox === "string" ? createAesGcmSecretBox(options.secretBox) : options.secretBox;
  const prefix = options.headerPrefix ?? "Vitrina";
  // basePath and publicUrl: routes match under the prefix, and every URL Vitrina prints carries it.
  const mount = resolveMount(options);
  // The outbox wraps storage so commits that add deliveries wake the workers.
  const outbox = createOutbox({
    storage: options.storage,
    secretBox,
    clock,
    ids,
    logger,
    headerPrefix: prefix,
    options: options.webhooks ?? {},
    // Without a configured logger this one warning still reaches the console: it names a setup mistake.
    warnLoudly:
      options.logger === undefined
        ? (message) => console.warn(`vitrina: ${message}`)
        : (message, requestLogger) => (requestLogger ?? logger).warn(message),
  });
  const storage = outbox.storage;
  const headerNames = {
    connectorId: `X-${prefix}-Connector-Id`,
    timestamp: `X-${prefix}-Timestamp`,
    signature: `X-${prefix}-Signature`,
  };

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

  const workspaces = createWorkspaceService({ storage, clock, ids });
  const connectors = createConnectorService({ storage, secretBox, clock, ids });
  const contacts = createContactService({ storage, clock, ids });
  const suppression = suppressionHasher(secretBox);
  const privacy = createPrivacyService({ storage, clock, ids, logger, hasher: suppression });
  checkLeadIntakeLimits(options.leadIntake);
  const refusalSettings = resolveLeadRefusals(options.leadIntake?.refusals);
  const verifier = createLeadSignatureVerifier({
    connectors: storage.connectors,
    secretBox,
    clock,
    toleranceMs: options.leadIntake?.toleranceMs ?? DEFAULT_LEAD_TOLERANCE_MS,
    headerNames,
  });
  const leads = createLeadIntake({
    storage,
    messaging,
    verifier,
    clock,
    ids,
    logger,
    firstMessage: options.leadIntake?.firstMessage ?? defaultFirstMessage,
    verticals: options.leadIntake?.verticals ?? defaultVerticals,
    consentClockSkewMs: options.leadIntake?.consentClockSkewMs,
    suppression,
  });

  const oauth =
    options.oauth === undefined
      ? null
      : createOAuthServer({
          storage,
          clock,
          ids,
          options: options.oauth,
          mount,
          ...(options.rest?.enabled === true && { restPath: REST_PATH }),
          ...(options.a2a?.enabled === true && { a2aPath: A2A_PATH }),
        });
  // Expired codes, spent refresh tokens past expiry, ended grants and clients no user approved go
  // with the rest of retention, so an operator has one schedule and one `vitrina cleanup`.
  const builtinRetentionSteps: RetentionStep[] = [
    ...(oauth === null ? [] : [{ kind: "oauth", run: oauthPurgeStep }]),
    { kind: "whatsapp_orphan_statuses", run: orphanStatusesStep },
    ...leadRefusalRetentionStep(refusalSettings),
  ];
  const retention =
    options.retention === false
      ? null
      : resolveRetention({
          ...options.retention,
          extraSteps: [...builtinRetentionSteps, ...(options.retention?.extraSteps ?? [])],
        });
  const maintenance = createMaintenance(
    {
      storage,
      messaging,
      clock,
      ids,
      logger,
      firstMessage: options.leadIntake?.firstMessage ?? defaultFirstMessage,
    },
    retention,
    resolveFirstMessageRecovery(options.leadIntake?.firstMessageRecovery),
  );

  const capabilities = createCapabilityService({
    storage,
    clock,
    ids,
    inventoryProviders: options.inventoryProviders ?? [],
    policies: options.policies ?? [],
    options: {
      ...options.capabilities,
      mcpUrl: options.capabilities?.mcpUrl ?? `${mount.publicOrigin ?? ""}${mount.basePath}/mcp`,
      ...(options.rest?.enabled === true && { restUrl: `${mount.publicOrigin ?? ""}${mount.basePath}${REST_PATH}` }),
      ...(options.a2a?.enabled === true && {
        a2a: {
          url: `${mount.publicOrigin ?? ""}${mount.basePath}${A2A_PATH}`,
          cardUrl: `${mount.publicOrigin ?? ""}${AGENT_CARD_PATH}`,
        },
      }),
    },
  });

  const apiKeys = createApiKeyService({ storage, clock, ids });
  const authenticate = firstOf(apiKeys.authenticator, ...(options.authenticators ?? []));
  // OAuth access tokens are audience-bound to the MCP URL (RFC 8707), so they authenticate there
  // only, never on the webhook API that `authenticate` guards.
  const mcpCredentials = options.mcp?.authenticate ?? authenticate;
  const authenticateMcp = oauth === null ? mcpCredentials : firstOf(mcpCredentials, oauth.authenticate);
  const conversations = createConversationService({ storage, clock, ids, messaging });
  const quotes = createQuoteService({ storage, clock, ids, vatRate: options.quotes?.vatRate ?? defaultVatRate });
  const orders = createOrderService({ storage, clock, ids });
  const admin = {
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
      refusalsKept: refusalSettings.keepPerConnector,
      firstMessage: options.leadIntake?.firstMessage ?? defaultFirstMessage,
    }),
  };

  // Through the outbox's storage, so the commit wakes the workers like any event's deliveries.
  const sendTestDelivery = createTestDelivery({ storage, clock, ids });

  // The webhook and admin APIs take API keys only; with OAuth on, a JWT sent there is told where it works.
  const oauthSurfaces = [
    "the MCP endpoint",
    ...(options.rest?.enabled === true ? ["the REST surface"] : []),
    ...(options.a2a?.enabled === true ? ["the A2A endpoint"] : []),
  ];
  const oauthElsewhere = oauth === null ? undefined : oauthSurfaces.join(", ").replace(/, ([^,]+)$/, " and $1");
  // The agent card and POST /a2a, with API keys and OAuth tokens issued for the A2A resource.
  const a2a =
    options.a2a?.enabled === true
      ? a2aSurface({ options: options.a2a, capabilities, authenticate, ids, mount, oauth })
      : null;

  const routes: Route[] = [
    // The public catalog: cacheable, revised whenever an embedder registers a capability.
    publicJsonRoute({
      path: "/v1/capabilities",
      revision: capabilities.revision,
      document: capabilities.catalog,
      maxAgeSeconds: wholeNumberOption(
        "capabilities.catalogMaxAgeSeconds",
        options.capabilities?.catalogMaxAgeSeconds,
        { fallback: 300, least: 0, unit: "seconds" },
      ),
    }),
    // The event catalogue for receivers: public, cacheable, fixed for the life of the process.
    publicJsonRoute({
      path: "/v1/events/schemas",
      revision: () => 0,
      document: eventSchemasDocument,
      maxAgeSeconds: 3600,
    }),
    ...webhookRoutes({ service: outbox.subscriptions, authenticate, sendTestDelivery, oauthElsewhere }),
    // The admin API (connectors, API keys, members, the WhatsApp channel, contacts' consent) under the same authenticator as the webhook API.
    ...adminRoutes({ storage, authenticate, mount, ...admin, oauthElsewhere }),
    // The web console over the same admin services, signed in by the embedder's hook.
    ...(options.console === undefined
      ? []
      : consoleRoutes({
          options: options.console,
          storage,
          secretBox,
          clock,
          mount,
          headerNames,
          ...admin,
          webhooks: outbox.subscriptions,
          sendTestDelivery,
          contacts,
          privacy,
          whatsappChannels,
        })),
    ...(options.rest?.enabled === true
      ? restRoutes({
          capabilities,
          // API keys, then OAuth access tokens issued for the REST resource (never the MCP one's).
          authenticate: oauth?.authenticateRest ? firstOf(authenticate, oauth.authenticateRest) : authenticate,
          // With OAuth, its 401 names REST's own metadata document, as /mcp's names MCP's.
          ...(oauth?.restResourceMetadataUrl && { resourceMetadataUrl: oauth.restResourceMetadataUrl }),
        })
      : []),
    ...(a2a?.routes ?? []),
    openApiRoute({
      capabilities,
      serverUrl: `${mount.publicOrigin ?? ""}${mount.basePath}` || "/",
      rest: options.rest?.enabled === true,
      leadHeaders: headerNames,
      eventHeaders: { signature: `${prefix}-Signature`, eventId: `${prefix}-Event-Id` },
    }),
    ...(options.health === undefined || options.health === false
      ? []
      : healthRoutes({
          storage,
          clock,
          workers: outbox.runningWorkers,
          options: options.health === true ? {} : options.health,
        })),
    ...whatsAppWebhookRoutes({
      storage,
      clock,
      ids,
      channels: channelCache,
      maxBodyBytes: options.whatsapp?.maxBodyBytes ?? DEFAULT_WHATSAPP_WEBHOOK_BODY_LIMIT,
      firstMessage: options.leadIntake?.firstMessage ?? defaultFirstMessage,
      suppression,
    }),
    leadIntakeRoute({
      intake: leads,
      maxBodyBytes: options.leadIntake?.maxBodyBytes ?? DEFAULT_LEAD_BODY_LIMIT,
      headerNames,
      refusals: createLeadRefusalRecorder({ storage, clock, ids, settings: refusalSettings }),
    }),
    ...(oauth?.routes ?? []),
    ...mcpRoutes({
      storage,
      messaging,
      clock,
      ids,
      logger,
      capabilities,
      // API keys (and any extra authenticators) unless the embedder brings their own; quotes from core.
      options: { ...options.mcp, authenticate: authenticateMcp, quotes: options.mcp?.quotes ?? quotes },
      resourceMetadataUrl: oauth === null ? undefined : (request) => oauth.context.urls(request).resourceMetadata,
    }),
  ];
  const router = createRouter(routes, logger, mount.routePath);
  let closing = false;
  let closed: Promise<void> | null = null;
  // Outermost layer: a request id on every response (the 503 while closing too), and a logger bound to it for every route.
  const handler: Handler = acceptsDirectBody(
    withRequestId(
      async (request, context) => {
        if (closing) return shuttingDownResponse();
        if (bodyAlreadyRead(request)) {
          const path = mount.routePath(new URL(request.url).pathname);
          (context?.logger ?? logger).error(
            { code: "body_already_consumed", method: request.method, path },
            MOUNT_BEFORE_BODY_PARSERS,
          );
          return bodyAlreadyReadResponse(context?.requestId);
        }
        return router(request, context);
      },
      { ids, logger },
    ),
  );

  return {
    handler,
    storage,
    workspaces,
    connectors,
    contacts,
    /** A person's data on request: find, export (streamed JSON), erase (also under `/v1/contacts`). */
    privacy,
    capabilities,
    leads,
    apiKeys,
    /** Bearer authentication for routes and other surfaces (MCP): API keys, then `authenticators`. */
    authenticate,
    /** Bearer authentication of `/mcp`: `mcp.authenticate` (default `authenticate`), then OAuth access tokens when `oauth` is configured. */
    authenticateMcp,
    conversations,
    /** The WhatsApp channel: per-workspace numbers (`channels`), and the webhook's path under the mount. */
    whatsapp: { channels: whatsappChannels, webhookPath: `${mount.basePath}${WHATSAPP_WEBHOOK_PATH}` },
    quotes,
    orders,
    /** The admin API's services (also served under `/v1/connectors`, `/v1/api-keys`, `/v1/members`, `/v1/whatsapp-channel`, `/v1/contacts`). */
    admin,
    /** Webhook subscriptions, delivery history and resend (also served under `/v1/webhooks`). */
    webhooks: outbox.subscriptions,
    /**
     * One delivery to one subscription through the outbox: a `webhook.test` ping, or with `type` a
     * realistic sample of that event type (what `vitrina trigger` and the console's test event send).
     */
    sendTestDelivery,
    /** The delivery side: `startWorker()` runs a loop (and the periodic `maintenance`) in this process; `dispatcher.runOnce` one batch. */
    outbox: {
      dispatcher: outbox.dispatcher,
      startWorker: (workerOptions?: WorkerOptions) =>
        maintenance.attachTo(outbox.startWorker(workerOptions), workerOptions),
    },
    /** Retention runs and the stuck first-message sweep, by hand (the worker runs both periodically). */
    maintenance,
    headerNames,
    /** The logger given in options (or the default), for bindings such as `@vitrina/http-node`. */
    logger,
    /** The OAuth server (its `authenticate` resolves access tokens), or null when `oauth` is not configured. */
    oauth,
    /** The mount prefix (`basePath` option, percent-encoded as in a URL: `/caf%C3%A9`), `""` at the origin root. */
    basePath: mount.basePath,
    /** `publicUrl`'s origin + `basePath` (`https://shop.example.com/vitrina`), what printed URLs start with; undefined without `publicUrl`. */
    publicBaseUrl: mount.publicBaseUrl,
    /**
     * Paths at the origin root the app must route to `handler` too: the OAuth discovery documents
     * (RFC 9728, RFC 8414) and the A2A agent card live at `/.well-known/…` whatever the mount.
     * Empty when OAuth and A2A are off.
     */
    wellKnownPaths: [
      ...(oauth === null
        ? []
        : wellKnownPathsOf(oauth.context.urls(new Request("http://vitrina.invalid/")), {
            rest: options.rest?.enabled === true,
            a2a: a2a !== null,
          })),
      ...(a2a?.wellKnownPaths ?? []),
    ],
    /**
     * Closes the storage; from the moment it is called every route answers 503 `shutting_down`.
     * Calling it again waits for the same close (a server's shutdown and the app may both call it).
     */
    async close() {
      closing = true;
      closed ??= storage.close();
      await closed;
    },
  };
}
export type Vitrina = ReturnType<typeof createVitrina>;

/** The root paths of the discovery documents of these URLs (path-inserted, as clients build them). */
function wellKnownPathsOf(urls: OAuthUrls, on: { rest: boolean; a2a: boolean }): string[] {
  const resourceMetadataPath = (path: string) =>
    new URL(protectedResourceMetadataUrl(`${urls.apiBase}${path}`)).pathname;
  return [
    new URL(urls.resourceMetadata).pathname,
    new URL(authorizationServerMetadataUrl(urls.issuer)).pathname,
    ...(on.rest ? [resourceMetadataPath(REST_PATH)] : []),
    ...(on.a2a ? [resourceMetadataPath(A2A_PATH)] : []),
  ];
}
