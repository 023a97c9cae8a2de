import { describe, expect, it } from "vitest";
import type { QuoteOperations } from "@vitrina/core/mcp";
import { startMcpHarness } from "./support/mcp-harness.js";

// Stands in for core's quote operation (webhooks branch: computes line totals, 19% VAT for CLP,
// stores, emits quote.created) until it is merged; here only the tool's wiring is tested.
const fakeQuotes = (): QuoteOperations & { received: unknown[] } => {
  const received: unknown[] = [];
  return {
    received,
    async create(input) {
      received.push(input);
      const items = input.items.map((i) => ({ ...i, lineTotal: i.unitPrice * i.quantity }));
      const subtotal = items.reduce((sum, i) => sum + i.lineTotal, 0);
      return {
        id: "q_1",
        contactId: input.contactId,
        conversationId: input.conversationId,
        currency: "CLP",
        items,
        subtotal,
        vatRate: 0.19,
        vat: Math.round(subtotal * 0.19),
        total: subtotal + Math.round(subtotal * 0.19),
        createdAt: "2026-01-01T00:00:00.000Z",
      };
    },
  };
};
describe("MCP options", () => {
  it("enableFinancialTools: create_quote prices from the workspace catalog, for the conversation's contact, through the quote operation", async () => {
    const quotes = fakeQuotes();
    const h = await startMcpHarness({ enableFinancialTools: true, quotes });
    const client = await h.connect();
    const quote = (args: Record<string, unknown>) =>
      client.callTool({ name: "create_quote", arguments: args }) as Promise<any>;
    const result = await quote({
      items: [
        { sku: "DEP-101", quantity: 1 },
        { sku: "EST-01", quantity: 2 },
      ],
      conversation_id: h.conversation.id,
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      quote_id: "q_1",
      contact_id: h.contact.id,
      conversation_id: h.conversation.id,
      currency: "CLP",
      subtotal: 117_000_000,
      vat_rate: 0.19,
      vat: 22_230_000,
      total: 139_230_000,
    });
    expect(result.structuredContent.items[1]).toEqual({
      sku: "EST-01",
      name: "Estacionamiento",
      quantity: 2,
      unit_price: 9_500_000,
      line_total: 19_000_000,
    });
    expect(quotes.received).toEqual([
      {
        workspaceId: h.workspace.id,
        contactId: h.contact.id,
        conversationId: h.conversation.id,
        items: [
          { sku: "DEP-101", quantity: 1, unitPrice: 98_000_000 },
          { sku: "EST-01", quantity: 2, unitPrice: 9_500_000 },
        ],
      },
    ]);

    expect((await quote({ items: [{ sku: "NOPE", quantity: 1 }], contact_id: h.contact.id })).content[0].text).toMatch(
      /sku NOPE is not in the catalog/,
    );
    expect((await quote({ items: [{ sku: "DEP-101", quantity: 1 }] })).content[0].text).toMatch(
      /needs contact_id or conversation_id/,
    );
    expect((await quote({ items: [{ sku: "DEP-101", quantity: 0 }], contact_id: h.contact.id })).isError).toBe(true);
    expect(quotes.received).toHaveLength(1);
    await client.close();
    await h.close();
  });

  it.each([
    [
      "underscore",
      [
        "catalog_search",
        "contacts_get",
        "contacts_search",
        "contacts_update",
        "conversations_history",
        "inventory_check",
      ],
    ],
    [
      "dotted",
      [
        "catalog.search",
        "contacts.get",
        "contacts.search",
        "contacts.update",
        "conversations.history",
        "inventory.check",
      ],
    ],
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

  it("without an authenticator nobody gets in", async () => {
    const h = await startMcpHarness({ authenticate: undefined });
    expect((await h.post({ jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(401);
    await h.close();
  });
});
