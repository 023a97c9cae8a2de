import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Vitrina } from "@vitrina/core";
import { restVitrina } from "./openapi-types.js";

type Document = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

/**
 * What the admin API answers, validated against the schema `GET /v1/openapi.json` publishes for
 * that operation and status: a view that grows a field its schema lacks (or the other way round)
 * fails here, not in a generated client.
 */
describe("the admin API's answers against its OpenAPI schemas", () => {
  let vitrina: Vitrina;
  let document: Document;
  let ajv: Ajv2020;
  let authorization: string;
  let contactId: string;

  beforeAll(async () => {
    vitrina = restVitrina();
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
    const { secret } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
      name: "admin",
      scopes: ["admin:read", "admin:write"],
    });
    authorization = `Bearer ${secret}`;
    // A contact with a consent ledger entry: its opt-out.
    contactId = (await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56912345678" })).id;
    document = await (await vitrina.handler(new Request("http://vitrina.test/v1/openapi.json"))).json();
    // Formats are annotations here: the shapes are what a generated client relies on.
    ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(document, "openapi");
  });
  afterAll(() => vitrina.close());

  /** Calls the route and checks the answer's status is documented and its body matches the schema. */
  async function conforms(method: string, template: string, path: string, body?: unknown) {
    const response = await vitrina.handler(
      new Request(`http://vitrina.test${path}`, {
        method,
        headers: { authorization, "content-type": "application/json" },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    );
    const status = String(response.status);
    const operation = document.paths[template]?.[method.toLowerCase()];
    expect(Object.keys(operation?.responses ?? {}), `${method} ${template} answered ${status}`).toContain(status);
    const text = await response.text();
    if (text === "" || response.status >= 400) return text === "" ? null : JSON.parse(text);
    const pointer = `openapi#/paths/${template.replace(/~/g, "~0").replace(/\//g, "~1")}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    const validate = ajv.compile({ $ref: pointer });
    const json = JSON.parse(text);
    expect(validate(json) ? [] : validate.errors, `${method} ${template} ${status}`).toEqual([]);
    return json;
  }

  it("connectors, API keys, members and /v1/admin/me answer what the document says", async () => {
    await conforms("GET", "/v1/admin/me", "/v1/admin/me");
    const created = await conforms("POST", "/v1/connectors", "/v1/connectors", { name: "CRM", system: "crm" });
    const id = created.connector.id as string;
    await conforms("GET", "/v1/connectors", "/v1/connectors");
    await conforms("GET", "/v1/connectors/{id}", `/v1/connectors/${id}`);
    await conforms("GET", "/v1/connectors/{id}/leads", `/v1/connectors/${id}/leads`);
    await conforms("POST", "/v1/connectors/{id}/rotate", `/v1/connectors/${id}/rotate`);
    await conforms("GET", "/v1/connectors/{id}", "/v1/connectors/nope");
    await conforms("GET", "/v1/connectors/{id}/refusals", `/v1/connectors/${id}/refusals`);
    await conforms("GET", "/v1/leads", "/v1/leads?first_message_status=failed&duplicate=false");
    await conforms("GET", "/v1/leads", "/v1/leads?duplicate=maybe");
    await conforms("POST", "/v1/leads/{id}/retry-first-message", "/v1/leads/missing/retry-first-message");
    const issued = await conforms("POST", "/v1/api-keys", "/v1/api-keys", { name: "ERP", scopes: ["admin:read"] });
    await conforms("GET", "/v1/api-keys", "/v1/api-keys");
    await conforms("DELETE", "/v1/api-keys/{id}", `/v1/api-keys/${issued.api_key.id}`);
    await conforms("POST", "/v1/members", "/v1/members", { email: "ana@example.com", role: "member" });
    await conforms("GET", "/v1/members", "/v1/members");
    await conforms("POST", "/v1/members", "/v1/members", { email: "not an email", role: "member" });
  });

  it("the WhatsApp channel and the privacy routes answer what the document says", async () => {
    await conforms("GET", "/v1/whatsapp-channel", "/v1/whatsapp-channel");
    await conforms("PUT", "/v1/whatsapp-channel", "/v1/whatsapp-channel", {
      phone_number_id: "1234567890",
      app_secret: "app-secret-0123456789",
    });
    await conforms("GET", "/v1/whatsapp-channel", "/v1/whatsapp-channel");
    await conforms("GET", "/v1/privacy/erasures", "/v1/privacy/erasures");
    await conforms("GET", "/v1/privacy/lookup", "/v1/privacy/lookup?phone=%2B56912345678");
    await conforms("GET", "/v1/contacts/{id}", "/v1/contacts/missing");
    await conforms("GET", "/v1/contacts/{id}", `/v1/contacts/${contactId}`);
    await conforms("GET", "/v1/contacts/{id}/consent", `/v1/contacts/${contactId}/consent`);
    await conforms("POST", "/v1/contacts/{id}/opt-out", `/v1/contacts/${contactId}/opt-out`, { note: "by phone" });
    await conforms("POST", "/v1/contacts/{id}/erase", `/v1/contacts/${contactId}/erase`);
    await conforms("GET", "/v1/privacy/erasures", "/v1/privacy/erasures");
    await conforms("DELETE", "/v1/whatsapp-channel", "/v1/whatsapp-channel");
  });
});
