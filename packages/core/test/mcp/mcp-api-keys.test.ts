import { afterEach, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "./support/mcp-harness.js";

// The harness's static tokens exercise the seam; here the MCP server runs on the default wiring:
// stored, hashed API keys from `vitrina.apiKeys`, and core's real quote operation.
let h: McpHarness;
afterEach(async () => {
  await h.close();
});

async function issueKey(scopes: string[]) {
  await h.storage.workspaces.upsertMember({ workspaceId: h.workspace.id, userId: "owner", role: "owner" });
  return h.vitrina.apiKeys.issue({ userId: "owner" }, h.workspace.id, { name: "mcp test", scopes });
}

describe("MCP with API keys from the API-key service", () => {
  it("accepts an issued key, enforces its scopes, and refuses it once revoked", async () => {
    h = await startMcpHarness({ authenticate: undefined });
    const { key, secret } = await issueKey(["catalog:read"]);
    const client = await h.connect(secret);
    expect((await client.listTools()).tools).toHaveLength(8);
    const result = (await client.callTool({ name: "query_catalog", arguments: { search: "Departamento" } })) as any;
    expect(result.structuredContent.items.map((i: { sku: string }) => i.sku)).toEqual(["DEP-101", "DEP-202"]);
    await expect(client.callTool({ name: "search_contacts", arguments: { query: "María" } })).rejects.toThrow(
      /403|insufficient_scope/,
    );
    await client.close();

    await h.vitrina.apiKeys.revoke({ userId: "owner" }, h.workspace.id, key.id);
    const refused = await h.post(
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { authorization: `Bearer ${secret}` },
    );
    expect(refused.status).toBe(401);
    // OAuth is off here, so the challenge names no metadata document.
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer realm="mcp", error="invalid_token"/);
  });

  it("refuses an unknown key with 401 and the discovery challenge", async () => {
    h = await startMcpHarness({ authenticate: undefined });
    const refused = await h.post(
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { authorization: "Bearer vtr_live_not_a_real_key" },
    );
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer realm="mcp", error="invalid_token"/);
  });

  it("create_quote, when enabled, stores the quote with server-computed VAT and emits quote.created", async () => {
    h = await startMcpHarness({ authenticate: undefined, enableFinancialTools: true, quotes: undefined });
    const { secret } = await issueKey(["quotes:write"]);
    const client = await h.connect(secret);
    const result = (await client.callTool({
      name: "create_quote",
      arguments: {
        items: [
          { sku: "DEP-101", quantity: 1 },
          { sku: "EST-01", quantity: 2 },
        ],
        contact_id: h.contact.id,
      },
    })) as any;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      subtotal: 117_000_000,
      vat_rate: 0.19,
      vat: 22_230_000,
      total: 139_230_000,
      currency: "CLP",
    });
    const stored = await h.storage.quotes.get(h.workspace.id, result.structuredContent.quote_id);
    expect(stored).toMatchObject({ contactId: h.contact.id, total: 139_230_000 });
    const events = await h.storage.events.listByWorkspace(h.workspace.id, { type: "quote.created" });
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ quote_id: result.structuredContent.quote_id, total: 139_230_000 });
    await client.close();
  });
});
