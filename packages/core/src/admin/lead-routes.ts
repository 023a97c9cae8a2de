import { jsonResponse } from "../http/json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import type { LeadAdmin } from "./lead-admin.js";
import { parseLeadListQuery } from "./lead-list-input.js";

/**
 * `GET /v1/leads` (every lead of the workspace, filtered, newest first), `POST
 * /v1/leads/{id}/retry-first-message` (owners and admins: `admin:write`), and `GET
 * /v1/connectors/{id}/refusals` (a connector's refused leads).
 */
export function leadRoutes(options: {
  leads: LeadAdmin;
  guard: (route: string, handler: AdminHandler) => Route["handler"];
}): Route[] {
  const { leads, guard } = options;
  return [
    {
      method: "GET",
      path: "/v1/leads",
      handler: guard("leads.list", async (caller, request) => {
        const { filter, page } = parseLeadListQuery(new URL(request.url).searchParams);
        return jsonResponse(await leads.list(caller, filter, page));
      }),
    },
    {
      method: "POST",
      path: "/v1/leads/:id/retry-first-message",
      // The guard is made per request here so the retry logs on the request's logger (with its id).
      handler: (request, params, context) =>
        guard("leads.retry_first_message", async (caller, req, p) => {
          // No body is read: drain whatever was sent so the client isn't left waiting.
          await req.body?.cancel().catch(() => {});
          return jsonResponse(await leads.retryFirstMessage(caller, p.id!, context.logger));
        })(request, params, context),
    },
    {
      method: "GET",
      path: "/v1/connectors/:id/refusals",
      handler: guard("connectors.refusals", async (caller, _request, p) =>
        jsonResponse(await leads.refusals(caller, p.id!)),
      ),
    },
  ];
}
