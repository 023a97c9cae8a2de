import { CONSENT_LEDGER_LIMIT } from "../contacts/contact-service.js";
import { ERASURES_LIMIT } from "../privacy/privacy-service.js";
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

/** The lookup's fields, read from the query string (each at most once: a repeated one is refused). */
const LOOKUP_FIELDS = ["contact_id", "phone", "email", "whatsapp_user_id"] as const;

function lookupFromQuery(search: URLSearchParams): Record<string, unknown> {
  const lookup: Record<string, unknown> = {};
  for (const [name, value] of search) {
    // Unknown or repeated names reach the strict schema as such and are refused naming the field.
    lookup[name] = name in lookup ? [lookup[name], value] : value;
  }
  return lookup;
}

/**
 * `/v1/contacts/{id}…`: the contact's consent view, its consent ledger, an opt-out asked for off
 * the channel; a person's data on request (owners and admins): `/v1/privacy/lookup` finds the
 * contact, `/v1/contacts/{id}/export` streams everything held about them, `/v1/contacts/{id}/erase`
 * erases them, `/v1/privacy/erasures` lists what was erased, by whom and when.
 */
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
    {
      method: "GET",
      path: "/v1/privacy/lookup",
      handler: guard("privacy.lookup", async (caller, request) =>
        jsonResponse(await contacts.lookup(caller, lookupFromQuery(new URL(request.url).searchParams))),
      ),
    },
    {
      method: "GET",
      path: "/v1/contacts/:id/export",
      handler: guard("contacts.export", async (caller, _request, p) => {
        const body = await contacts.exportData(caller, p.id!);
        return new Response(body, {
          headers: {
            "content-type": "application/json; charset=utf-8",
            "content-disposition": `attachment; filename="contact-${encodeURIComponent(p.id!)}.json"`,
            "cache-control": "no-store",
          },
        });
      }),
    },
    {
      method: "POST",
      path: "/v1/contacts/:id/erase",
      handler: guard("contacts.erase", async (caller, request, p) => {
        await optionalJsonBody(request);
        return jsonResponse(await contacts.erase(caller, p.id!));
      }),
    },
    {
      method: "GET",
      path: "/v1/privacy/erasures",
      handler: guard("privacy.erasures", async (caller, request) => {
        const limit = queryLimit(new URL(request.url).searchParams, ERASURES_LIMIT);
        return jsonResponse(await contacts.erasures(caller, limit));
      }),
    },
  ];
}
