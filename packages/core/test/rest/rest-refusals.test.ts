import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "@vitrina/http-node";
import { restVitrina } from "./openapi-types.js";

/** REST's own refusals over a real socket: each carries the service's one error body and names the field to fix. */
describe("REST refusals", () => {
  let server: Awaited<ReturnType<typeof serve>>;
  let apiKey: string;
  let contactId: string;
  beforeAll(async () => {
    const vitrina = restVitrina();
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
    contactId = (await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56944445555" })).id;
    apiKey = (
      await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, { name: "ERP", scopes: ["customers:write"] })
    ).secret;
    server = await serve(vitrina.handler, { port: 0, handleSignals: false });
  });
  afterAll(() => server.close());

  async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body !== undefined && { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as any };
  }

  it("answers GET on a command with the whole error body, request_id included, like every other error", async () => {
    const refused = await call("GET", `/v1/rest/contacts.update?contact_id=${contactId}`);
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("POST");
    expect(refused.json.error).toEqual({
      code: "method_not_allowed",
      message: "contacts.update is a command: call it with POST and a JSON body",
      reasons: [],
      request_id: refused.headers.get("x-request-id"),
    });
  });

  it("names the Idempotency-Key header, the field the caller sets, when a key is reused with another input", async () => {
    const headers = { "idempotency-key": "rename-reused" };
    expect(
      (await call("POST", "/v1/rest/contacts.update", headers, { contact_id: contactId, name: "Ana" })).status,
    ).toBe(200);
    const reused = await call("POST", "/v1/rest/contacts.update", headers, { contact_id: contactId, name: "Eva" });
    expect(reused.status).toBe(422);
    expect(reused.json.error.code).toBe("idempotency_key_reused");
    expect(reused.json.error.message).toContain("use a new key");
    expect(reused.json.error.reasons).toEqual([
      { field: "Idempotency-Key", reason: "was used with a different input; send a new key for a new change" },
    ]);
  });
});
