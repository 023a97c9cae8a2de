import { describe, expect, it } from "vitest";
import type { QuoteOperations } from "@vitrina/core";
import { startMcpHarness } from "./support/mcp-harness.js";

// Stands in for the quote operation of the webhooks branch (prices from the catalog, 19% VAT,
// stores the quote, emits quote.created) until it is merged; here only the tool's wiring is tested.
const fakeQuotes = (): QuoteOperations & { received: unknown[] } => {
  const received: unknown[] = [];
  return {
    received,
    async create(input) {
      received.push(input);
      const items = input.items.map((i) => ({ sku: i.sku, name: null, quantity: i.quantity, unit_price: 1000, line_total: 1000 * i.quantity }));
      const subtotal = items.reduce((sum, i) => sum + i.line_total, 0);
      return { quote_id: "q_1", currency: "CLP", items, subtotal, vat_rate: 0.19, vat: subtotal * 0.19, total: subtotal * 1.19, created_at: "2026-01-01T00:00:00.000Z" };
    },
  };
};

describe("MCP options", () => {
  it("enableFinancialTools lets create_quote call the quote operation with the caller's workspace", async () => {
    const quotes = fakeQuotes();
    const h = await startMcpHarness({ enableFinancialTools: true, quotes });
    const client = await h.connect();
    const result = (await client.callTool({ name: "create_quote", arguments: { items: [{ sku: "DEP-101", quantity: 2 }] } })) as any;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ quote_id: "q_1", subtotal: 2000, vat: 380, total: 2380 });
    expect(quotes.received).toEqual([{ workspaceId: h.workspace.id, createdBy: "key-full", items: [{ sku: "DEP-101", quantity: 2 }] }]);
    const zero = (await client.callTool({ name: "create_quote", arguments: { items: [{ sku: "DEP-101", quantity: 0 }] } })) as any;
    expect(zero.isError).toBe(true);
    await client.close();
    await h.close();
  });

  it.each([
    ["underscore", ["catalog_search", "contacts_get", "contacts_search", "contacts_update", "conversations_history", "inventory_check"]],
    ["dotted", ["catalog.search", "contacts.get", "contacts.search", "contacts.update", "conversations.history", "inventory.check"]],
  ] as const)("canonicalToolNames %s adds the six capabilities next to the 8 legacy tools", async (style, names) => {
    const h = await startMcpHarness({ canonicalToolNames: style });
    const client = await h.connect();
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(14);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([...names, "check_stock"]));
    const stock = (await client.callTool({ name: names[5], arguments: { sku: "DEP-202" } })) as any;
    expect(stock.structuredContent).toMatchObject({ found: true, available: false });
    await client.close();
    await h.close();
  });

  it("without a capability runtime the capability tools answer a tool error, the others still work", async () => {
    const h = await startMcpHarness({ capabilities: undefined });
    const client = await h.connect();
    const result = (await client.callTool({ name: "query_catalog", arguments: {} })) as any;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/no capability runtime/);
    expect(((await client.callTool({ name: "list_conversations", arguments: {} })) as any).isError).toBeFalsy();
    await client.close();
    await h.close();
  });

  it("without an authenticator nobody gets in", async () => {
    const h = await startMcpHarness({ authenticate: undefined });
    expect((await h.post({ jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(401);
    await h.close();
  });
});
