import { API_BODY_LIMIT } from "../http/body-limits.js";
import { jsonResponse } from "../http/json.js";
import { listPageSchema, type JsonSchema } from "../http/route-doc.js";
import { ADMIN_BODY_ERRORS, adminOperation, PAGE_PARAMETERS } from "./admin-operation.js";
import { adminBodySchemas } from "./admin-input.js";
import { connectorLeadViewSchema, connectorSecretSchema, connectorViewSchema } from "./admin-view-schemas.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import { parseConnectorCreate } from "./admin-input.js";
import { adminPageOptions } from "./admin-page.js";
import type { ConnectorAdmin } from "./connector-admin.js";

/** An answer that also carries `intake_url`, the exact address the sender posts signed leads to. */
const withIntakeUrl = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  required: [...(schema.required as string[]), "intake_url"],
  properties: { ...(schema.properties as JsonSchema), intake_url: { type: "string", format: "uri" } },
});

/**
 * `/v1/connectors…`: list, create (secret shown once), get, rotate. `intakeUrl` is the exact
 * address senders post signed leads to, built from `publicUrl` + `basePath` (or the request's origin).
 */
export function connectorRoutes(options: {
  connectors: ConnectorAdmin;
  guard: (route: string, handler: AdminHandler) => Route["handler"];
  intakeUrl: (request: Request) => string;
}): Route[] {
  const { connectors, guard, intakeUrl } = options;
  return [
    {
      method: "GET",
      path: "/v1/connectors",
      openapi: adminOperation("read", {
        operationId: "connectors_list",
        summary: "Lists the workspace's connectors (lead senders), newest first.",
        parameters: PAGE_PARAMETERS,
        responses: {
          "200": { description: "Connectors.", schema: listPageSchema(connectorViewSchema) },
        },
      }),
      handler: guard("connectors.list", async (caller, request) =>
        jsonResponse(await connectors.list(caller, adminPageOptions(new URL(request.url)))),
      ),
    },
    {
      method: "POST",
      path: "/v1/connectors",
      openapi: adminOperation("write", {
        operationId: "connectors_create",
        summary: "Creates a connector; its signing secret is shown in this answer only.",
        requestBody: { schema: adminBodySchemas.connectorCreate },
        responses: { "201": { description: "Created.", schema: withIntakeUrl(connectorSecretSchema) } },
        errors: ADMIN_BODY_ERRORS,
      }),
      handler: guard("connectors.create", async (caller, request) => {
        const input = parseConnectorCreate(await readJsonBody(request, { maxBytes: API_BODY_LIMIT }));
        const created = await connectors.create(caller, input);
        return jsonResponse({ ...created, intake_url: intakeUrl(request) }, 201, { "cache-control": "no-store" });
      }),
    },
    {
      method: "GET",
      path: "/v1/connectors/:id",
      openapi: adminOperation("read", {
        operationId: "connectors_get",
        summary: "One connector, with the URL its sender posts leads to.",
        responses: {
          "200": {
            description: "The connector.",
            schema: withIntakeUrl({
              type: "object",
              required: ["connector"],
              properties: { connector: connectorViewSchema },
            }),
          },
        },
        errors: [404],
      }),
      handler: guard("connectors.get", async (caller, request, p) =>
        jsonResponse({ connector: await connectors.get(caller, p.id!), intake_url: intakeUrl(request) }),
      ),
    },
    {
      method: "GET",
      path: "/v1/connectors/:id/leads",
      openapi: adminOperation("read", {
        operationId: "connectors_leads",
        summary: "The connector's recent leads with their outcome, newest first.",
        parameters: PAGE_PARAMETERS,
        responses: {
          "200": { description: "Leads.", schema: listPageSchema(connectorLeadViewSchema) },
        },
        errors: [404],
      }),
      handler: guard("connectors.leads", async (caller, request, p) =>
        jsonResponse(await connectors.leads(caller, p.id!, adminPageOptions(new URL(request.url)))),
      ),
    },
    {
      method: "POST",
      path: "/v1/connectors/:id/rotate",
      openapi: adminOperation("write", {
        operationId: "connectors_rotate",
        summary: "Replaces the connector's signing secret at once; the new one is shown in this answer only.",
        responses: { "200": { description: "Rotated.", schema: connectorSecretSchema } },
        errors: [404],
      }),
      handler: guard("connectors.rotate", async (caller, request, p) => {
        await request.body?.cancel().catch(() => {});
        return jsonResponse(await connectors.rotate(caller, p.id!), 200, { "cache-control": "no-store" });
      }),
    },
  ];
}
