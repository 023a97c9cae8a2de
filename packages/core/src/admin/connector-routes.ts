import { jsonResponse } from "../http/json.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import { parseConnectorCreate } from "./admin-input.js";
import { adminPageOptions } from "./admin-page.js";
import type { ConnectorAdmin } from "./connector-admin.js";

const MAX_BODY_BYTES = 16 * 1024;

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
      handler: guard("connectors.list", async (caller, request) =>
        jsonResponse(await connectors.list(caller, adminPageOptions(new URL(request.url)))),
      ),
    },
    {
      method: "POST",
      path: "/v1/connectors",
      handler: guard("connectors.create", async (caller, request) => {
        const input = parseConnectorCreate(await readJsonBody(request, { maxBytes: MAX_BODY_BYTES }));
        const created = await connectors.create(caller, input);
        return jsonResponse({ ...created, intake_url: intakeUrl(request) }, 201, { "cache-control": "no-store" });
      }),
    },
    {
      method: "GET",
      path: "/v1/connectors/:id",
      handler: guard("connectors.get", async (caller, request, p) =>
        jsonResponse({ connector: await connectors.get(caller, p.id!), intake_url: intakeUrl(request) }),
      ),
    },
    {
      method: "GET",
      path: "/v1/connectors/:id/leads",
      handler: guard("connectors.leads", async (caller, request, p) =>
        jsonResponse(await connectors.leads(caller, p.id!, adminPageOptions(new URL(request.url)))),
      ),
    },
    {
      method: "POST",
      path: "/v1/connectors/:id/rotate",
      handler: guard("connectors.rotate", async (caller, request, p) => {
        await request.body?.cancel().catch(() => {});
        return jsonResponse(await connectors.rotate(caller, p.id!), 200, { "cache-control": "no-store" });
      }),
    },
  ];
}
