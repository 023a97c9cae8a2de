import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@a2a-js/sdk/client";
import { a2aOutcome, type Outcome } from "./support/outcomes.js";
import { bearer, capabilityMessage, officialClient, startA2aServer, type A2aServer } from "./support/a2a-harness.js";

// The official @a2a-js/sdk client resolves the card over a real socket, picks the JSON-RPC
// interface it names, and calls every built-in capability; MCP tools/call and REST answer the
// same input the same way, because all three go through one capabilities.invoke.
describe("A2A parity with MCP tools/call and REST", () => {
  let h: A2aServer;
  let client: Client;
  beforeAll(async () => {
    h = await startA2aServer({
      a2a: { enabled: true },
      rest: { enabled: true },
      // contacts.update is an MCP tool under its canonical name only.
      mcp: { canonicalToolNames: "underscore" },
    });
    client = await officialClient(h.server.url);
  });
  afterAll(() => h.close());

  async function mcpOutcome(tool: string, args: Record<string, unknown>): Promise<Outcome> {
    const mcp = await h.call("POST", "/mcp", {
      headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } },
    });
    const result = mcp.json.result;
    if (result === undefined) throw new Error(`${tool} over MCP: ${mcp.text}`);
    if (result.isError) return { ok: false, code: result._meta["vitrina/error"].code };
    // MCP wraps a list in { items } (structuredContent is an object); REST and A2A send it as is.
    return {
      ok: true,
      output:
        "items" in result.structuredContent && Object.keys(result.structuredContent).length === 1
          ? result.structuredContent.items
          : result.structuredContent,
    };
  }

  async function restOutcome(capability: string, input: unknown, key?: string): Promise<Outcome> {
    const rest = await h.call("POST", `/v1/rest/${capability}`, {
      body: input,
      ...(key !== undefined && { headers: { "idempotency-key": key } }),
    });
    return rest.status === 200 ? { ok: true, output: rest.json.output } : { ok: false, code: rest.json.error.code };
  }

  it("resolves the card and picks its one JSON-RPC interface, protocol 1.0", async () => {
    expect(client.protocolVersion).toBe("1.0");
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({ url: `${h.server.url}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }),
    ]);
  });

  it("answers every built-in capability as MCP tools/call and REST do: the same output or the same refusal", async () => {
    const cases: Array<[capability: string, tool: string, input: Record<string, unknown>]> = [
      ["catalog.search", "query_catalog", { search: "a", limit: 3 }],
      ["catalog.search", "query_catalog", { limit: "many" }],
      ["contacts.search", "search_contacts", { query: "+569" }],
      ["contacts.get", "get_contact", { contact_id: h.contact.id }],
      ["contacts.get", "get_contact", { contact_id: "no-such-contact" }],
      ["conversations.history", "get_conversation_history", { conversation_id: "no-such-conversation" }],
      ["inventory.check", "check_stock", { sku: "NOPE-1" }],
      ["contacts.update", "contacts_update", { contact_id: h.contact.id, name: "Misma" }],
      ["contacts.update", "contacts_update", { contact_id: h.contact.id, email: "not-an-email" }],
    ];
    const capabilities = new Set((await h.call("GET", "/v1/capabilities")).json.capabilities.map((c: any) => c.name));
    expect(new Set(cases.map(([capability]) => capability))).toEqual(capabilities);
    let index = 0;
    for (const [capability, tool, input] of cases) {
      const keyed = capability === "contacts.update";
      const key = (surface: string) => (keyed ? `parity-${surface}-${index}` : undefined);
      index++;
      const a2a = await a2aOutcome(
        client.sendMessage(capabilityMessage(capability, input, key("a2a")), bearer(h.apiKey)),
      );
      const mcp = await mcpOutcome(tool, keyed ? { ...input, idempotency_key: key("mcp") } : input);
      const rest = await restOutcome(capability, input, key("rest"));
      expect({ capability, input, a2a }).toEqual({ capability, input, a2a: mcp });
      expect({ capability, input, a2a }).toEqual({ capability, input, a2a: rest });
    }
  });

  it("refuses a key without the capability's scope as MCP and REST do", async () => {
    const webhooksOnly = await h.issue(["webhooks:read"]);
    const a2a = await a2aOutcome(client.sendMessage(capabilityMessage("catalog.search", {}), bearer(webhooksOnly)));
    const rest = await h.call("POST", "/v1/rest/catalog.search", { body: {}, key: webhooksOnly });
    expect(a2a).toEqual({ ok: false, code: "insufficient_scope" });
    expect(rest.json.error.code).toBe("insufficient_scope");
  });
});
