import { requirePrincipal, requireScope, type AcceptedCredentials, type Authenticator } from "../auth/principal.js";
import { API_BODY_LIMIT } from "../http/body-limits.js";
import { jsonResponse } from "../http/json.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route, RouteHandler } from "../http/router.js";
import type { Logger } from "../ports/logger.js";
import type { EndpointService } from "./endpoint-service.js";
import { endpointOperations } from "./endpoint-openapi.js";

/**
 * Operating an endpoint: `GET /v1/webhooks/:id/health`, `POST /v1/webhooks/:id/recover` and
 * `GET /v1/webhooks/:id/deliveries/:deliveryId` (one delivery with its event and the headers sent),
 * behind the same API keys and scopes as the rest of `/v1/webhooks`.
 */
export function webhookEndpointRoutes(options: {
  service: EndpointService;
  authenticate: Authenticator;
  oauthElsewhere?: string;
}): Route[] {
  const accepts: AcceptedCredentials =
    options.oauthElsewhere === undefined ? {} : { oauthElsewhere: options.oauthElsewhere };
  const { service } = options;
  const withScope =
    (
      scope: "webhooks:read" | "webhooks:write",
      answer: (ws: string, request: Request, p: Record<string, string>, logger: Logger) => Promise<Response>,
    ): RouteHandler =>
    async (request, params, context) => {
      const principal = await requirePrincipal(options.authenticate, request, accepts);
      requireScope(principal, scope);
      return answer(principal.workspaceId, request, params, context.logger);
    };
  return [
    {
      method: "GET",
      path: "/v1/webhooks/:id/health",
      openapi: endpointOperations.health,
      handler: withScope("webhooks:read", async (ws, _r, p) => jsonResponse(await service.health(ws, p.id!))),
    },
    {
      method: "POST",
      path: "/v1/webhooks/:id/recover",
      openapi: endpointOperations.recover,
      handler: withScope("webhooks:write", async (ws, request, p, logger) => {
        const body = await readJsonBody(request, { maxBytes: API_BODY_LIMIT });
        return jsonResponse(await service.recover(ws, p.id!, body, { logger }), 202);
      }),
    },
    {
      method: "GET",
      path: "/v1/webhooks/:id/deliveries/:deliveryId",
      openapi: endpointOperations.delivery,
      handler: withScope("webhooks:read", async (ws, _r, p) =>
        jsonResponse(await service.delivery(ws, p.id!, p.deliveryId!)),
      ),
    },
  ];
}
