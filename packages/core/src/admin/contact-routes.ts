import { CONSENT_LEDGER_LIMIT } from "../contacts/contact-service.js";
import { jsonResponse } from "../http/json.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import { parseContactOptOut } from "./admin-input.js";
import { queryLimit } from "./admin-page.js";
import type { ContactAdmin } from "./contact-admin.js";

const MAX_BODY_BYTES = 4 * 1024;

/** The opt-out's body is optional: none (or an empty one) records the opt-out without a note. */
async function optionalJsonBody(request: Request): Promise<unknown> {
  if (request.body === null || request.headers.get("content-length") === "0") {
    await request.body?.cancel().catch(() => {});
    return {};
  }
  return readJsonBody(request, { maxBytes: MAX_BODY_BYTES });
}

/** `/v1/contacts/{id}…`: the contact's consent view, its consent ledger, and an opt-out asked for off the channel. */
export function contactRoutes(options: {
  contacts: ContactAdmin;
  guard: (route: string, handler: AdminHandler) => Route["handler"];
}): Route[] {
  const { contacts, guard } = options;
  return [
    {
      method: "GET",
      path: "/v1/contacts/:id",
      handler: guard("contacts.get", async (caller, _request, p) => jsonResponse(await contacts.get(caller, p.id!))),
    },
    {
      method: "GET",
      path: "/v1/contacts/:id/consent",
      handler: guard("contacts.consent", async (caller, request, p) => {
        const limit = queryLimit(new URL(request.url).searchParams, CONSENT_LEDGER_LIMIT);
        return jsonResponse(await contacts.consent(caller, p.id!, limit));
      }),
    },
    {
      method: "POST",
      path: "/v1/contacts/:id/opt-out",
      handler: guard("contacts.opt_out", async (caller, request, p) => {
        const { note } = parseContactOptOut(await optionalJsonBody(request));
        return jsonResponse(await contacts.optOut(caller, p.id!, note));
      }),
    },
  ];
}
