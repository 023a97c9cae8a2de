import { API_BODY_LIMIT } from "../http/body-limits.js";
import { CONSENT_LEDGER_LIMIT } from "../contacts/contact-service.js";
import type { DocSchema, JsonSchema } from "../http/route-doc.js";
import { ADMIN_BODY_ERRORS, adminOperation } from "./admin-operation.js";
import { adminBodySchemas } from "./admin-input.js";
import { consentEntryViewSchema, contactConsentViewSchema, erasureSchema } from "./admin-view-schemas.js";
import { ERASURES_LIMIT } from "../privacy/privacy-service.js";
import { jsonResponse } from "../http/json.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import { parseContactOptOut } from "./admin-input.js";
import { queryLimit } from "./admin-page.js";
import type { ContactAdmin } from "./contact-admin.js";

const itemsOf = (item: DocSchema): JsonSchema => ({
  type: "object",
  required: ["items"],
  properties: { items: { type: "array", items: item } },
});
const limitParameter = (max: number) => ({
  name: "limit",
  in: "query",
  schema: { type: "integer", minimum: 1, maximum: max },
});

/** The opt-out's body is optional: none (or an empty one) records the opt-out without a note. */
async function optionalJsonBody(request: Request): Promise<unknown> {
  if (request.body === null || request.headers.get("content-length") === "0") {
    await request.body?.cancel().catch(() => {});
    return {};
  }
  return readJsonBody(request, { maxBytes: API_BODY_LIMIT });
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
      openapi: adminOperation("read", {
        operationId: "contacts_get",
        summary: "The contact as consent decisions see it: WhatsApp consent, opt-out, the 24-hour service window.",
        responses: { "200": { description: "The contact.", schema: contactConsentViewSchema } },
        errors: [404],
      }),
      handler: guard("contacts.get", async (caller, _request, p) => jsonResponse(await contacts.get(caller, p.id!))),
    },
    {
      method: "GET",
      path: "/v1/contacts/:id/consent",
      openapi: adminOperation("read", {
        operationId: "contacts_consent",
        summary: "The contact's consent ledger, newest first.",
        parameters: [limitParameter(CONSENT_LEDGER_LIMIT)],
        responses: { "200": { description: "Consent changes.", schema: itemsOf(consentEntryViewSchema) } },
        errors: [404],
      }),
      handler: guard("contacts.consent", async (caller, request, p) => {
        const limit = queryLimit(new URL(request.url).searchParams, CONSENT_LEDGER_LIMIT);
        return jsonResponse(await contacts.consent(caller, p.id!, limit));
      }),
    },
    {
      method: "POST",
      path: "/v1/contacts/:id/opt-out",
      openapi: adminOperation("write", {
        operationId: "contacts_opt_out",
        summary: "Records an opt-out asked for off the channel (a call, an email); the body and its note are optional.",
        requestBody: { schema: adminBodySchemas.contactOptOut, required: false },
        responses: { "200": { description: "Opted out.", schema: contactConsentViewSchema } },
        errors: [404, ...ADMIN_BODY_ERRORS],
      }),
      handler: guard("contacts.opt_out", async (caller, request, p) => {
        const { note } = parseContactOptOut(await optionalJsonBody(request));
        return jsonResponse(await contacts.optOut(caller, p.id!, note));
      }),
    },
    {
      method: "GET",
      path: "/v1/privacy/lookup",
      openapi: adminOperation("write", {
        operationId: "privacy_lookup",
        summary: "Finds the contact a person's data request is about (owners and admins), by exactly one identifier.",
        parameters: ["contact_id", "phone", "email", "whatsapp_user_id"].map((name) => ({
          name,
          in: "query",
          required: false,
          schema: { type: "string" },
        })),
        responses: {
          "200": {
            description: "The contact found.",
            schema: { type: "object", required: ["contact_id"], properties: { contact_id: { type: "string" } } },
          },
        },
        errors: [404, 422],
      }),
      handler: guard("privacy.lookup", async (caller, request) =>
        jsonResponse(await contacts.lookup(caller, lookupFromQuery(new URL(request.url).searchParams))),
      ),
    },
    {
      method: "GET",
      path: "/v1/contacts/:id/export",
      openapi: adminOperation("write", {
        operationId: "contacts_export",
        summary: "Everything held about the contact, streamed as one JSON document (owners and admins).",
        responses: {
          "200": {
            description: "The export, as an attachment.",
            schema: { type: "object" },
            headers: {
              "Content-Disposition": {
                description: 'attachment; filename="contact-<id>.json"',
                schema: { type: "string" },
              },
            },
          },
        },
        errors: [404],
      }),
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
      openapi: adminOperation("write", {
        operationId: "contacts_erase",
        summary: "Erases the contact and redacts what refers to them (owners and admins); the body is ignored.",
        responses: { "200": { description: "Erased: what was removed, by kind.", schema: erasureSchema } },
        errors: [404, 413, 415],
      }),
      handler: guard("contacts.erase", async (caller, request, p) => {
        await optionalJsonBody(request);
        return jsonResponse(await contacts.erase(caller, p.id!));
      }),
    },
    {
      method: "GET",
      path: "/v1/privacy/erasures",
      openapi: adminOperation("write", {
        operationId: "privacy_erasures",
        summary: "What was erased, by whom and when, newest first (owners and admins).",
        parameters: [limitParameter(ERASURES_LIMIT)],
        responses: { "200": { description: "Erasures.", schema: itemsOf(erasureSchema) } },
      }),
      handler: guard("privacy.erasures", async (caller, request) => {
        const limit = queryLimit(new URL(request.url).searchParams, ERASURES_LIMIT);
        return jsonResponse(await contacts.erasures(caller, limit));
      }),
    },
  ];
}
