import { a2aSurface } from "./a2a/a2a-surface.js";
import { A2A_PATH } from "./a2a/a2a-options.js";
import { routeCredentials } from "./auth/credential-routing.js";
import { WHATSAPP_WEBHOOK_PATH } from "./channels/whatsapp/webhook-route.js";
import { coreSurface } from "./core-surface.js";
import { consoleHost, createDomainServices } from "./domain-services.js";
import { healthRoutes } from "./http/health-routes.js";
import { withRequestPrelude } from "./http/request-prelude.js";
import { undocumented } from "./http/route-doc.js";
import { createRouter, type Route } from "./http/router.js";
import { resolveFirstMessageRecovery } from "./leads/reconcile-first-messages.js";
import { createMaintenance, type WorkerOptions } from "./maintenance/maintenance.js";
import { resolveRetention } from "./maintenance/retention.js";
import { mcpRoutes } from "./mcp/mcp-route.js";
import { createOAuthServer } from "./oauth/oauth-routes.js";
import { oauthSurface } from "./oauth/oauth-surface.js";
import { resolveOptions } from "./resolved-options.js";
import { openApiRoute } from "./rest/openapi-route.js";
import { REST_PATH } from "./rest/rest-options.js";
import { restRoutes } from "./rest/rest-routes.js";
import type { Surface } from "./surface.js";
import type { VitrinaOptions } from "./vitrina-options.js";

export type { VitrinaOptions } from "./vitrina-options.js";
export { DEFAULT_LEAD_BODY_LIMIT, DEFAULT_LEAD_TOLERANCE_MS } from "./leads/lead-intake-limits.js";

/**
 * The composition root: resolves the options once, wires the domain services over your storage and
 * transports, collects the surfaces that are on, and returns the services with one web-standard
 * `handler` that serves every route.
 *
 * ```ts
 * const vitrina = createVitrina({ storage: memoryStorage(), messaging, secretBox: process.env.VITRINA_SECRET_KEY! });
 * await serveVitrina(vitrina, { port: 8787 }); // from @vitrina/http-node: server + webhook worker
 * ```
 */
export function createVitrina(options: VitrinaOptions) {
  const resolved = resolveOptions(options);
  const { clock, ids, logger, secretBox, mount, surfaces } = resolved;
  const services = createDomainServices(options, resolved);
  const { outbox, storage, capabilities, admin, sendTestDelivery } = services;
  const headerNames = resolved.leadHeaders;

  const oauth =
    options.oauth === undefined
      ? null
      : createOAuthServer({
          storage,
          clock,
          ids,
          options: options.oauth,
          mount,
          ...(surfaces.rest && { restPath: REST_PATH }),
          ...(surfaces.a2a && { a2aPath: A2A_PATH }),
        });
  const credentials = routeCredentials({
    apiKeys: services.apiKeys.authenticator,
    authenticators: options.authenticators,
    mcpAuthenticate: options.mcp?.authenticate,
    oauth,
    surfaces,
  });
  const { authenticate, oauthElsewhere } = credentials;

  const core = coreSurface({ options, resolved, services, authenticate, oauthElsewhere });
  const optional: Array<Surface | null> = [
    {
      routes: mcpRoutes({
        storage,
        messaging: services.messaging,
        clock,
        ids,
        logger,
        capabilities,
        options: {
          ...options.mcp,
          authenticate: credentials.authenticateMcp,
          quotes: options.mcp?.quotes ?? services.quotes,
        },
        resourceMetadataUrl: oauth === null ? undefined : (request) => oauth.context.urls(request).resourceMetadata,
      }),
    },
    oauth && oauthSurface(oauth, [...(surfaces.rest ? [REST_PATH] : []), ...(surfaces.a2a ? [A2A_PATH] : [])]),
    // The web console over the same admin services, signed in by the embedder's hook (@vitrina/console).
    options.console === undefined ? null : consoleSurfaceOf(options.console.mount(consoleHost(services, resolved))),
    surfaces.rest
      ? {
          routes: restRoutes({
            capabilities,
            authenticate: credentials.authenticateRest,
            // With OAuth, its 401 names REST's own metadata document, as /mcp's names MCP's.
            ...(oauth?.restResourceMetadataUrl && { resourceMetadataUrl: oauth.restResourceMetadataUrl }),
          }),
        }
      : null,
    surfaces.a2a && options.a2a
      ? a2aSurface({ options: options.a2a, capabilities, authenticate: credentials.authenticateA2a, ids, mount, oauth })
      : null,
    surfaces.health && {
      routes: healthRoutes({ storage, clock, workers: outbox.runningWorkers, options: surfaces.health }),
    },
  ];
  const collected = [core, ...optional.filter((surface): surface is Surface => surface !== null)];
  const routes: Route[] = collected.flatMap((surface) => surface.routes);
  routes.push(
    openApiRoute({
      capabilities,
      routes: () => routes,
      serverUrl: resolved.urls.api,
      leadHeaders: headerNames,
      eventHeaders: resolved.eventHeaders,
    }),
  );

  const retention =
    options.retention === false
      ? null
      : resolveRetention({
          ...options.retention,
          // The optional surfaces' steps (OAuth's expired credentials) before the core's housekeeping:
          // a run its time budget cuts short purges credentials first.
          extraSteps: [
            ...[...collected.slice(1), core].flatMap((s) => s.retentionSteps ?? []),
            ...(options.retention?.extraSteps ?? []),
          ],
        });
  const maintenance = createMaintenance(
    { storage, messaging: services.messaging, clock, ids, logger, firstMessage: resolved.firstMessage },
    retention,
    resolveFirstMessageRecovery(options.leadIntake?.firstMessageRecovery),
  );

  let closing = false;
  let closed: Promise<void> | null = null;
  const router = createRouter(routes, logger, mount.routePath);
  const handler = withRequestPrelude(router, { ids, logger, mount, isClosing: () => closing });

  const vitrina = {
    handler,
    storage,
    workspaces: services.workspaces,
    connectors: services.connectors,
    contacts: services.contacts,
    /** A person's data on request: find, export (streamed JSON), erase (also under `/v1/contacts`). */
    privacy: services.privacy,
    capabilities,
    leads: services.leads,
    apiKeys: services.apiKeys,
    /** Bearer authentication for routes and other surfaces (MCP): API keys, then `authenticators`. */
    authenticate,
    /** Bearer authentication of `/mcp`: `mcp.authenticate` (default `authenticate`), then OAuth access tokens when `oauth` is configured. */
    authenticateMcp: credentials.authenticateMcp,
    conversations: services.conversations,
    /** The WhatsApp channel: per-workspace numbers (`channels`), and the webhook's path under the mount. */
    whatsapp: { channels: services.whatsappChannels, webhookPath: `${mount.basePath}${WHATSAPP_WEBHOOK_PATH}` },
    quotes: services.quotes,
    orders: services.orders,
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
    wellKnownPaths: collected.flatMap((surface) => surface.wellKnownPaths ?? []),
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
  ROUTES.set(vitrina, routes);
  return vitrina;
}
export type Vitrina = ReturnType<typeof createVitrina>;

/** The console's pages and form posts are for people, not an API: none of them goes in the OpenAPI document. */
function consoleSurfaceOf(surface: Surface): Surface {
  return {
    ...surface,
    routes: undocumented(surface.routes, "the web console: HTML pages and form posts for people, not an API"),
  };
}

const ROUTES = new WeakMap<object, readonly Route[]>();

/** Every route a Vitrina serves, for the test that none goes undocumented; not exported from the package. */
export const routesOf = (vitrina: Vitrina): readonly Route[] => ROUTES.get(vitrina) ?? [];
