import { adminRoutes } from "./admin/admin-routes.js";
import type { Authenticator } from "./auth/principal.js";
import { wholeNumberOption } from "./capabilities/whole-number-option.js";
import { orphanStatusesRetentionStep } from "./channels/whatsapp/orphan-statuses.js";
import { DEFAULT_WHATSAPP_WEBHOOK_BODY_LIMIT, whatsAppWebhookRoutes } from "./channels/whatsapp/webhook-route.js";
import type { DomainServices } from "./domain-services.js";
import { eventSchemasDocument } from "./events/event-schemas.js";
import { publicJsonRoute } from "./http/public-json-route.js";
import { leadIntakeRoute } from "./leads/lead-intake-route.js";
import { createLeadRefusalRecorder, leadRefusalRetentionStep } from "./leads/lead-refusals.js";
import type { ResolvedOptions } from "./resolved-options.js";
import type { Surface } from "./surface.js";
import type { VitrinaOptions } from "./vitrina-options.js";
import { webhookRoutes } from "./webhooks/webhook-routes.js";

/**
 * What every Vitrina serves whatever the options: the public catalogs, the webhook and admin APIs
 * (API keys; with OAuth on, `oauthElsewhere` tells a JWT sent here where it works), the WhatsApp
 * webhook and signed lead intake.
 */
export function coreSurface(deps: {
  options: VitrinaOptions;
  resolved: ResolvedOptions;
  services: DomainServices;
  authenticate: Authenticator;
  oauthElsewhere: string | undefined;
}): Surface {
  const { options, resolved, services, authenticate, oauthElsewhere } = deps;
  const { clock, ids, mount } = resolved;
  const { storage, capabilities, outbox, admin, sendTestDelivery } = services;
  return {
    routes: [
      // The public catalog: cacheable, revised whenever an embedder registers a capability.
      publicJsonRoute({
        path: "/v1/capabilities",
        revision: capabilities.revision,
        document: capabilities.catalog,
        openapi: {
          operationId: "capabilities_catalog",
          summary: "The capability catalog: every capability, its schemas, scopes and surfaces.",
        },
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
        openapi: { operationId: "event_schemas", summary: "The JSON Schema of every event type subscribers receive." },
      }),
      ...webhookRoutes({ service: outbox.subscriptions, authenticate, sendTestDelivery, oauthElsewhere }),
      // The admin API under the same authenticator as the webhook API.
      ...adminRoutes({ storage, authenticate, mount, ...admin, oauthElsewhere }),
      ...whatsAppWebhookRoutes({
        storage,
        clock,
        ids,
        channels: services.channelCache,
        maxBodyBytes: options.whatsapp?.maxBodyBytes ?? DEFAULT_WHATSAPP_WEBHOOK_BODY_LIMIT,
        firstMessage: resolved.firstMessage,
        suppression: services.suppression,
      }),
      leadIntakeRoute({
        intake: services.leads,
        maxBodyBytes: resolved.leadIntake.maxBodyBytes,
        headerNames: resolved.leadHeaders,
        refusals: createLeadRefusalRecorder({ storage, clock, ids, settings: resolved.leadRefusals }),
      }),
    ],
    retentionSteps: [orphanStatusesRetentionStep, ...leadRefusalRetentionStep(resolved.leadRefusals)],
  };
}
