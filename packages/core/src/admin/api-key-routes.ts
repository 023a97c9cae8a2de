import { API_BODY_LIMIT } from "../http/body-limits.js";
import { jsonResponse } from "../http/json.js";
import { listPageSchema } from "../http/route-doc.js";
import { ADMIN_BODY_ERRORS, adminOperation } from "./admin-operation.js";
import { adminBodySchemas } from "./admin-input.js";
import { apiKeyViewSchema } from "./admin-view-schemas.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import { parseApiKeyIssue } from "./admin-input.js";
import type { ApiKeyAdmin } from "./api-key-admin.js";

/** `/v1/api-keys…`: list (prefix, scopes, created, last used), issue (key shown once), revoke. */
export function apiKeyRoutes(options: {
  apiKeys: ApiKeyAdmin;
  guard: (route: string, handler: AdminHandler) => Route["handler"];
}): Route[] {
  const { apiKeys, guard } = options;
  return [
    {
      method: "GET",
      path: "/v1/api-keys",
      openapi: adminOperation("read", {
        operationId: "api_keys_list",
        summary: "Lists the workspace's API keys: prefix, scopes, created, last used; never the key.",
        responses: { "200": { description: "API keys.", schema: listPageSchema(apiKeyViewSchema) } },
      }),
      handler: guard("api_keys.list", async (caller) => jsonResponse(await apiKeys.list(caller))),
    },
    {
      method: "POST",
      path: "/v1/api-keys",
      openapi: adminOperation("write", {
        operationId: "api_keys_issue",
        summary: "Issues an API key with the given scopes; the key is shown in this answer only.",
        requestBody: { schema: adminBodySchemas.apiKeyIssue },
        responses: {
          "201": {
            description: "Issued.",
            schema: {
              type: "object",
              required: ["api_key", "key"],
              properties: {
                api_key: apiKeyViewSchema,
                key: { type: "string", description: "Shown this once; stored hashed." },
              },
            },
          },
        },
        errors: ADMIN_BODY_ERRORS,
      }),
      handler: guard("api_keys.issue", async (caller, request) => {
        const input = parseApiKeyIssue(await readJsonBody(request, { maxBytes: API_BODY_LIMIT }));
        return jsonResponse(await apiKeys.issue(caller, input), 201, { "cache-control": "no-store" });
      }),
    },
    {
      method: "DELETE",
      path: "/v1/api-keys/:id",
      openapi: adminOperation("write", {
        operationId: "api_keys_revoke",
        summary: "Revokes an API key: it is refused from then on.",
        responses: { "204": { description: "Revoked." } },
        errors: [404],
      }),
      handler: guard("api_keys.revoke", async (caller, request, p) => {
        await request.body?.cancel().catch(() => {});
        await apiKeys.revoke(caller, p.id!);
        return new Response(null, { status: 204 });
      }),
    },
  ];
}
