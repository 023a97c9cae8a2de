import { jsonResponse } from "../http/json.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import { parseApiKeyIssue } from "./admin-input.js";
import type { ApiKeyAdmin } from "./api-key-admin.js";

const MAX_BODY_BYTES = 16 * 1024;

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
      handler: guard("api_keys.list", async (caller) => jsonResponse(await apiKeys.list(caller))),
    },
    {
      method: "POST",
      path: "/v1/api-keys",
      handler: guard("api_keys.issue", async (caller, request) => {
        const input = parseApiKeyIssue(await readJsonBody(request, { maxBytes: MAX_BODY_BYTES }));
        return jsonResponse(await apiKeys.issue(caller, input), 201, { "cache-control": "no-store" });
      }),
    },
    {
      method: "DELETE",
      path: "/v1/api-keys/:id",
      handler: guard("api_keys.revoke", async (caller, request, p) => {
        await request.body?.cancel().catch(() => {});
        await apiKeys.revoke(caller, p.id!);
        return new Response(null, { status: 204 });
      }),
    },
  ];
}
