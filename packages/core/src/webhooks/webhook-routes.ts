import { requirePrincipal, requireScope, type AcceptedCredentials, type Authenticator } from "../auth/principal.js";
import type { SubscriptionCallContext, SubscriptionService } from "./subscription-service.js";
import { deliveryPageQuery } from "./delivery-filters.js";
import { jsonResponse } from "../http/json.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route, RouteHandler } from "../http/router.js";
import type { SendTestDelivery } from "./test-delivery.js";

/** Subscription bodies are tiny; 16 KiB leaves room for long URLs. */
const MAX_BODY_BYTES = 16 * 1024;

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
  const read = "webhooks:read";
  const write = "webhooks:write";
  return [
    {
      method: "POST",
      path: "/v1/webhooks",
      handler: guarded(write, async (ws, request, _p, call) =>
        jsonResponse(await service.create(ws, await readJsonBody(request, { maxBytes: MAX_BODY_BYTES }), call), 201),
      ),
    },
    { method: "GET", path: "/v1/webhooks", handler: guarded(read, async (ws) => jsonResponse(await service.list(ws))) },
    {
      method: "GET",
      path: "/v1/webhooks/:id",
      handler: guarded(read, async (ws, _r, p) => jsonResponse(await service.get(ws, p.id!))),
    },
    {
      method: "PATCH",
      path: "/v1/webhooks/:id",
      handler: guarded(write, async (ws, request, p, call) =>
        jsonResponse(await service.update(ws, p.id!, await readJsonBody(request, { maxBytes: MAX_BODY_BYTES }), call)),
      ),
    },
    {
      method: "DELETE",
      path: "/v1/webhooks/:id",
      handler: guarded(write, async (ws, _r, p) => {
        await service.delete(ws, p.id!);
        return new Response(null, { status: 204 });
      }),
    },
    {
      method: "GET",
      path: "/v1/webhooks/:id/deliveries",
      handler: guarded(read, async (ws, request, p) =>
        jsonResponse(await service.deliveries(ws, p.id!, deliveryPageQuery(new URL(request.url)))),
      ),
    },
    {
      method: "POST",
      path: "/v1/webhooks/:id/deliveries/:deliveryId/resend",
      handler: guarded(write, async (ws, request, p) => {
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
            handler: guarded(write, async (ws, request, p) => {
              await request.body?.cancel().catch(() => {});
              return jsonResponse(await options.sendTestDelivery!(ws, p.id!), 202);
            }),
          },
        ]),
  ];
}
