import { readFile, writeFile } from "node:fs/promises";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "@vitrina/core/demo";
import { serve } from "@vitrina/http-node";
import type { paths } from "./fixtures/openapi-types.js";
import { generatedTypes, restVitrina, TYPES_FIXTURE } from "./openapi-types.js";

describe("a client generated from /v1/openapi.json (openapi-typescript + openapi-fetch)", () => {
  it("is generated from the current document (the committed types are fresh)", async () => {
    const fresh = await generatedTypes();
    if (process.env.UPDATE_OPENAPI_TYPES === "1") await writeFile(TYPES_FIXTURE, fresh);
    expect(await readFile(TYPES_FIXTURE, "utf8")).toBe(fresh);
  });

  let server: Awaited<ReturnType<typeof serve>>;
  let client: ReturnType<typeof createClient<paths>>;
  let contactId: string;
  beforeAll(async () => {
    const vitrina = restVitrina();
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
    await seedDemoData(vitrina, workspace.id);
    contactId = (await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56933334444" })).id;
    const { secret } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
      name: "client",
      scopes: ["catalog:read", "customers:read", "customers:write", "conversations:read", "inventory:read"],
    });
    server = await serve(vitrina.handler, { port: 0, handleSignals: false });
    client = createClient<paths>({ baseUrl: server.url, headers: { authorization: `Bearer ${secret}` } });
  });
  afterAll(() => server.close());

  it("calls every capability with typed inputs and outputs", async () => {
    const search = await client.GET("/v1/rest/catalog.search", { params: { query: { search: "a", limit: 2 } } });
    expect(search.response.status).toBe(200);
    expect(Array.isArray(search.data?.output)).toBe(true);
    const firstSku: string | undefined = search.data?.output[0]?.sku;

    const stock = await client.POST("/v1/rest/inventory.check", { body: { sku: firstSku ?? "NONE" } });
    expect(typeof stock.data?.output.found).toBe("boolean");

    const contacts = await client.GET("/v1/rest/contacts.search", { params: { query: { query: "+569" } } });
    expect(contacts.data?.output.length).toBeGreaterThan(0);

    const contact = await client.GET("/v1/rest/contacts.get", { params: { query: { contact_id: contactId } } });
    expect(contact.response.status).toBe(200);

    const history = await client.POST("/v1/rest/conversations.history", { body: { conversation_id: "none" } });
    expect([200, 404]).toContain(history.response.status);

    const updated = await client.POST("/v1/rest/contacts.update", {
      params: { header: { "Idempotency-Key": "client-1" } },
      body: { contact_id: contactId, name: "Desde el cliente" },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.provenance.freshness).toBe("live");

    const refused = await client.POST("/v1/rest/catalog.search", { body: { limit: -1 } });
    expect(refused.error?.error.code).toBe("invalid_payload");
  });
});
