import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FINANCIAL_TOOLS_DISABLED_MESSAGE } from "@vitrina/core/mcp";
import { startMcpHarness, type McpHarness } from "./support/mcp-harness.js";

let h: McpHarness;
let client: Client;
beforeAll(async () => {
  h = await startMcpHarness();
  client = await h.connect();
});
afterAll(async () => {
  await client.close();
  await h.close();
});

const call = (name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<any>;

describe("MCP over the official SDK client", () => {
  it("initializes with protocol 2025-06-18 and server vitrina 1.0.0", () => {
    expect(client.getServerVersion()).toEqual({ name: "vitrina", version: "1.0.0" });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    // The SDK client asked for its newest revision; we pinned ours and it accepted it.
    expect((client.transport as any).protocolVersion).toBe("2025-06-18");
  });

  it("lists exactly the 8 tools of the spec, with their inputs and honest annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "check_stock",
      "create_quote",
      "get_contact",
      "get_conversation_history",
      "list_conversations",
      "query_catalog",
      "search_contacts",
      "send_message",
    ]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const inputs = (name: string) => ({
      props: Object.keys(byName[name]!.inputSchema.properties ?? {}).sort(),
      required: byName[name]!.inputSchema.required ?? [],
    });
    expect(inputs("search_contacts")).toEqual({ props: ["query"], required: ["query"] });
    expect(inputs("get_contact")).toEqual({ props: ["contact_id"], required: ["contact_id"] });
    expect(inputs("get_conversation_history")).toEqual({
      props: ["conversation_id", "limit"],
      required: ["conversation_id"],
    });
    expect(inputs("list_conversations")).toEqual({ props: ["status"], required: [] });
    expect(inputs("send_message")).toEqual({
      props: ["conversation_id", "text"],
      required: ["conversation_id", "text"],
    });
    expect(inputs("query_catalog")).toEqual({ props: ["limit", "search"], required: [] });
    expect(inputs("check_stock")).toEqual({ props: ["sku"], required: ["sku"] });
    expect(inputs("create_quote")).toEqual({ props: ["contact_id", "conversation_id", "items"], required: ["items"] });
    expect((byName.list_conversations!.inputSchema.properties as any).status.enum).toEqual([
      "open",
      "pending",
      "closed",
    ]);
    expect((byName.query_catalog!.inputSchema.properties as any).limit).toMatchObject({
      type: "integer",
      minimum: 0,
      maximum: 100,
    });
    for (const tool of tools) {
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(tool.outputSchema?.type).toBe("object");
    }
    expect(byName.query_catalog!.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.send_message!.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName.create_quote!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
  });

  it("publishes the capability registry's own schemas and scopes for capability-backed tools", async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const [tool, capability] of [
      ["query_catalog", "catalog.search"],
      ["check_stock", "inventory.check"],
      ["get_contact", "contacts.get"],
    ] as const) {
      const descriptor = h.vitrina.capabilities.descriptor(capability)!;
      expect(byName[tool]!.inputSchema).toEqual(descriptor.inputSchema);
      expect(byName[tool]!.description).toContain(`capability ${capability} ${descriptor.version}`);
    }
    expect(byName.query_catalog!.outputSchema).toEqual({
      type: "object",
      properties: { items: h.vitrina.capabilities.descriptor("catalog.search")!.outputSchema },
      required: ["items"],
      additionalProperties: false,
    });
  });

  it("search_contacts and get_contact read the stored contact through the capability runtime", async () => {
    const found = await call("search_contacts", { query: "+56912345678" });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent).toEqual({
      items: [{ name: "María Pérez", phone: "+56912345678", email: "maria@example.cl" }],
    });
    expect(JSON.parse(found.content[0].text)).toEqual(found.structuredContent);
    expect(found._meta["vitrina/capability"]).toBe("contacts.search");
    expect(found._meta["vitrina/provenance"]).toMatchObject({ source: "service_native", authoritative: false });

    const contact = await call("get_contact", { contact_id: h.contact.id });
    expect(contact.structuredContent).toMatchObject({ name: "María Pérez", tags: ["vip"], score: 80 });
  });

  it("get_conversation_history returns the stored messages, most recent first", async () => {
    const history = await call("get_conversation_history", { conversation_id: h.conversation.id, limit: 10 });
    expect(history.structuredContent.items.map((m: any) => m.sender)).toEqual(["agent", "contact"]);
  });

  it("list_conversations filters by status", async () => {
    const all = await call("list_conversations", {});
    expect(all.structuredContent.items.map((c: any) => c.id)).toEqual([h.conversation.id, h.closed.id]);
    const closed = await call("list_conversations", { status: "closed" });
    expect(closed.structuredContent.items).toEqual([
      expect.objectContaining({ id: h.closed.id, status: "closed", channel: "web" }),
    ]);
  });

  it("query_catalog and check_stock answer from the catalog", async () => {
    const catalog = await call("query_catalog", { search: "departamento", limit: 5 });
    expect(catalog.structuredContent.items.map((i: any) => i.sku)).toEqual(["DEP-101", "DEP-202"]);
    const stock = await call("check_stock", { sku: "DEP-101" });
    expect(stock.structuredContent).toMatchObject({ found: true, sku: "DEP-101", stock: 3, available: true });
    expect((await call("check_stock", { sku: "NOPE" })).structuredContent).toMatchObject({ found: false, sku: "NOPE" });
  });

  it("send_message sends through the transport as a human and records it in the history", async () => {
    const sent = await call("send_message", {
      conversation_id: h.conversation.id,
      text: "Le escribe Ana, del equipo de ventas.",
    });
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent).toMatchObject({
      conversation_id: h.conversation.id,
      sender: "human",
      status: "sent",
    });
    expect(h.messaging.sent.at(-1)).toEqual({
      channel: "whatsapp",
      workspaceId: h.workspace.id,
      to: "+56912345678",
      text: "Le escribe Ana, del equipo de ventas.",
    });
    const [latest] = await h.storage.messages.listByConversation(h.conversation.id, { limit: 1 });
    expect(latest).toMatchObject({
      id: sent.structuredContent.message_id,
      sender: "human",
      content: "Le escribe Ana, del equipo de ventas.",
    });
  });

  it("send_message refuses a closed conversation with a tool error and sends nothing", async () => {
    const before = h.messaging.sent.length;
    const result = await call("send_message", { conversation_id: h.closed.id, text: "hola" });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/closed/);
    expect(h.messaging.sent.length).toBe(before);
  });

  it("send_message refuses a NUL character before recording or sending anything", async () => {
    const before = h.messaging.sent.length;
    // Refused by the body reader as invalid params naming the field, answering this request's id.
    await expect(call("send_message", { conversation_id: h.conversation.id, text: "hola\u0000" })).rejects.toThrow(
      /-32602.*params\.arguments\.text contains U\+0000 \(NUL\)/,
    );
    expect(h.messaging.sent.length).toBe(before);
  });

  it("create_quote is listed but disabled by default, saying how to enable it", async () => {
    const result = await call("create_quote", { items: [{ sku: "DEP-101", quantity: 1 }] });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe(FINANCIAL_TOOLS_DISABLED_MESSAGE);
    expect(result.content[0].text).toMatch(/enableFinancialTools: true/);
  });

  it("an unknown tool is a JSON-RPC error", async () => {
    await expect(call("delete_everything", {})).rejects.toThrow(/Unknown tool: delete_everything/);
  });

  it("invalid arguments are a tool error naming each field (validated by the runtime for capability tools)", async () => {
    const result = await call("query_catalog", { limit: 500, colour: "red" });
    expect(result.isError).toBe(true);
    expect(result._meta["vitrina/error"].code).toBe("invalid_payload");
    expect(result.content[0].text).toMatch(/limit: .*100/);
    expect(result.content[0].text).toMatch(/colour: is not a recognised field/);
    expect((await call("get_contact", {})).content[0].text).toMatch(/contact_id/);
  });

  it("invalid arguments of a domain tool are refused before anything is sent", async () => {
    const before = h.messaging.sent.length;
    const result = await call("send_message", { conversation_id: h.conversation.id, text: "" });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/send_message input is invalid: text: /);
    expect((await call("list_conversations", { status: "archived" })).content[0].text).toMatch(/status: /);
    expect(h.messaging.sent.length).toBe(before);
  });

  it("a contact that does not exist is a tool error", async () => {
    const result = await call("get_contact", { contact_id: "missing" });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/contact missing does not exist/);
  });
});
