import { API_BODY_LIMIT } from "../http/body-limits.js";
import { requirePrincipal, requireScope, type AcceptedCredentials, type Authenticator } from "../auth/principal.js";
import type { SubscriptionCallContext, SubscriptionService } from "./subscription-service.js";
import { checkedPageSize } from "./subscription-service.js";
import { jsonResponse } from "../http/json.js";
import { queryWholeNumber } from "../http/query-number.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route, RouteHandler } from "../http/router.js";
import { bearerOperation, listPageSchema } from "../http/route-doc.js";
import { TEST_EVENT_TYPE, type SendTestDelivery } from "./test-delivery.js";
import { subscriptionBodySchemas } from "./subscription-input.js";
import { deliveryViewSchema, subscriptionViewSchema } from "./subscription-views.js";

function pageOptions(url: URL): { limit?: number; startingAfter?: string } {
  const limit = queryWholeNumber(url.searchParams, "limit");
  const startingAfter = url.searchParams.get("starting_after") ?? undefined;
  if (limit === undefined) return { startingAfter };
  return { limit: checkedPageSize(limit), startingAfter };
}

const READ = "webhooks:read";
const WRITE = "webhooks:write";

const webhookOperation = (scope: string, doc: Parameters<typeof bearerOperation>[2]) =>
  bearerOperation("webhooks", scope, doc);

/** A JSON body's refusals: too large, not JSON, invalid. */
const BODY_ERRORS = [413, 415, 422];

/**
 * `/v1/webhooks…`: subscriptions, delivery history and resend, behind `Authorization: Bearer
 * <API_KEY>` with `webhooks:read` (GET) or `webhooks:write` (everything else).
 */
export function webhookRoutes(options: {
  service: SubscriptionService;
  authenticate: Authenticator;
  /** `POST /v1/webhooks/:id/test`: a synthetic `webhook.test` delivery to that subscription. */
  sendTestDelivery?: SendTestDelivery;
  /** Where OAuth access tokens are accepted instead, for the 401 of one sent here (see AcceptedCredentials). */
  oauthElsewhere?: string;
}): Route[] {
  const accepts: AcceptedCredentials =
    options.oauthElsewhere === undefined ? {} : { oauthElsewhere: options.oauthElsewhere };
  const { service } = options;
  const guarded =
    (
      scope: string,
      handler: (
        workspaceId: string,
        request: Request,
        params: Record<string, string>,
        call: SubscriptionCallContext,
      ) => Promise<Response>,
    ): RouteHandler =>
    async (request, params, context) => {
      const principal = await requirePrincipal(options.authenticate, request, accepts);
      requireScope(principal, scope);
      // The request's logger (bound to its requestId), so what the service logs can be correlated.
      return handler(principal.workspaceId, request, params, { logger: context.logger });
    };
  return [
    {
      method: "POST",
      path: "/v1/webhooks",
      openapi: webhookOperation(WRITE, {
        operationId: "webhooks_create",
        summary: "Subscribes a URL to event types; the secret is stored sealed and never shown again.",
        requestBody: { schema: subscriptionBodySchemas.create },
        responses: { "201": { description: "Created.", schema: subscriptionViewSchema } },
        errors: BODY_ERRORS,
      }),
      handler: guarded(WRITE, async (ws, request, _p, call) =>
        jsonResponse(await service.create(ws, await readJsonBody(request, { maxBytes: API_BODY_LIMIT }), call), 201),
      ),
    },
    {
      method: "GET",
      path: "/v1/webhooks",
      openapi: webhookOperation(READ, {
        operationId: "webhooks_list",
        summary: "Lists the workspace's subscriptions.",
        responses: { "200": { description: "Subscriptions.", schema: listPageSchema(subscriptionViewSchema) } },
      }),
      handler: guarded(READ, async (ws) => jsonResponse(await service.list(ws))),
    },
    {
      method: "GET",
      path: "/v1/webhooks/:id",
      openapi: webhookOperation(READ, {
        operationId: "webhooks_get",
        summary: "One subscription.",
        responses: { "200": { description: "The subscription.", schema: subscriptionViewSchema } },
        errors: [404],
      }),
      handler: guarded(READ, async (ws, _r, p) => jsonResponse(await service.get(ws, p.id!))),
    },
    {
      method: "PATCH",
      path: "/v1/webhooks/:id",
      openapi: webhookOperation(WRITE, {
        operationId: "webhooks_update",
        summary:
          "Changes URL, event types, secret, or enables/disables it. A new secret rolls: the replaced one keeps signing too for rotation.grace_seconds (default 24 h; 0 switches at once).",
        requestBody: { schema: subscriptionBodySchemas.update },
        responses: { "200": { description: "Updated.", schema: subscriptionViewSchema } },
        errors: [404, ...BODY_ERRORS],
      }),
      handler: guarded(WRITE, async (ws, request, p, call) =>
        jsonResponse(await service.update(ws, p.id!, await readJsonBody(request, { maxBytes: API_BODY_LIMIT }), call)),
      ),
    },
    {
      method: "DELETE",
      path: "/v1/webhooks/:id",
      openapi: webhookOperation(WRITE, {
        operationId: "webhooks_delete",
        summary: "Deletes the subscription and stops its pending deliveries.",
        responses: { "204": { description: "Deleted." } },
        errors: [404],
      }),
      handler: guarded(WRITE, async (ws, _r, p) => {
        await service.delete(ws, p.id!);
        return new Response(null, { status: 204 });
      }),
    },
    {
      method: "GET",
      path: "/v1/webhooks/:id/deliveries",
      openapi: webhookOperation(READ, {
        operationId: "webhooks_deliveries",
        summary: "Delivery history, newest first, with every attempt.",
        parameters: [
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } },
          { name: "starting_after", in: "query", schema: { type: "string" } },
        ],
        responses: { "200": { description: "Deliveries.", schema: listPageSchema(deliveryViewSchema) } },
        errors: [404, 422],
      }),
      handler: guarded(READ, async (ws, request, p) =>
        jsonResponse(await service.deliveries(ws, p.id!, pageOptions(new URL(request.url)))),
      ),
    },
    {
      method: "POST",
      path: "/v1/webhooks/:id/deliveries/:deliveryId/resend",
      openapi: webhookOperation(WRITE, {
        operationId: "webhooks_resend",
        summary: "Makes a delivery due again now (a new attempt, same event id).",
        responses: { "202": { description: "Rescheduled: due now.", schema: deliveryViewSchema } },
        errors: [404, 409],
      }),
      handler: guarded(WRITE, async (ws, request, p) => {
        await request.body?.cancel().catch(() => {});
        return jsonResponse(await service.resend(ws, p.id!, p.deliveryId!), 202);
      }),
    },
    ...(options.sendTestDelivery === undefined
      ? []
      : [
          {
            method: "POST",
            path: "/v1/webhooks/:id/test",
            openapi: webhookOperation(WRITE, {
              operationId: "webhooks_test",
              summary: `Sends a synthetic ${TEST_EVENT_TYPE} event to this subscription only, through the outbox (409 when it is disabled).`,
              responses: {
                "202": {
                  description: "Queued: due now, listed in the delivery history.",
                  schema: {
                    type: "object",
                    required: ["delivery_id", "event_id"],
                    properties: { delivery_id: { type: "string" }, event_id: { type: "string" } },
                  },
                },
              },
              errors: [404, 409],
            }),
            handler: guarded(WRITE, async (ws, request, p) => {
              await request.body?.cancel().catch(() => {});
              return jsonResponse(await options.sendTestDelivery!(ws, p.id!), 202);
            }),
          },
        ]),
  ];
}
