import { jsonResponse } from "../http/json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import type { LeadAdmin } from "./lead-admin.js";
import { parseLeadListQuery } from "./lead-list-input.js";
import { listPageSchema } from "../http/route-doc.js";
import { adminOperation, PAGE_PARAMETERS } from "./admin-operation.js";
import {
  firstMessageRetrySchema,
  LEAD_LIST_PARAMETERS,
  leadRefusalViewSchema,
  workspaceLeadViewSchema,
} from "./lead-view-schemas.js";

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
      openapi: adminOperation("read", {
        operationId: "leads_list",
        summary: "Every lead of the workspace across connectors, newest first, filtered.",
        parameters: [...PAGE_PARAMETERS, ...LEAD_LIST_PARAMETERS],
        responses: {
          "200": { description: "Leads.", schema: listPageSchema(workspaceLeadViewSchema) },
        },
        errors: [422],
      }),
      handler: guard("leads.list", async (caller, request) => {
        const { filter, page } = parseLeadListQuery(new URL(request.url).searchParams);
        return jsonResponse(await leads.list(caller, filter, page));
      }),
    },
    {
      method: "POST",
      path: "/v1/leads/:id/retry-first-message",
      openapi: adminOperation("write", {
        operationId: "leads_retry_first_message",
        summary: "Sends a failed first message again, unless the contact opted out or may not be messaged now.",
        responses: { "200": { description: "Handed to the provider again.", schema: firstMessageRetrySchema } },
        errors: [404, 409],
      }),
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
      openapi: adminOperation("read", {
        operationId: "connectors_refusals",
        summary: "The connector's newest refused leads: code, fields at fault, timestamp skew, request id.",
        responses: { "200": { description: "Refusals.", schema: listPageSchema(leadRefusalViewSchema) } },
        errors: [404],
      }),
      handler: guard("connectors.refusals", async (caller, _request, p) =>
        jsonResponse(await leads.refusals(caller, p.id!)),
      ),
    },
  ];
}
