import { Ajv } from "ajv";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "./support/mcp-harness.js";

// The tool listing as clients read it: the canonical link in `_meta`, the idempotency argument
// of contacts_update, and output schemas every validator accepts.
let h: McpHarness;
let client: Client;
beforeAll(async () => {
  h = await startMcpHarness({ canonicalToolNames: "underscore", enableFinancialTools: true });
  client = await h.connect();
});
afterAll(async () => {
  await client.close();
  await h.close();
});

const call = (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  client.callTool({ name, arguments: args, ...(meta && { _meta: meta }) }) as Promise<any>;

/** JSON pointers of every `type` given as an array, anywhere in a schema. */
function typeArrays(schema: unknown, path = ""): string[] {
  if (schema === null || typeof schema !== "object") return [];
  const here = Array.isArray((schema as { type?: unknown }).type) ? [path || "/"] : [];
  return [...here, ...Object.entries(schema).flatMap(([key, child]) => typeArrays(child, `${path}/${key}`))];
}

describe("canonical names in _meta (item 11)", () => {
  it("links every capability-backed tool, alias or canonical, to its capability name and version", async () => {
    const { tools } = await client.listTools();
    const meta = Object.fromEntries(tools.map((t) => [t.name, t._meta]));
    expect(meta.query_catalog).toEqual({
      "vitrina/capability": "catalog.search",
      "vitrina/capabilityVersion": h.vitrina.capabilities.descriptor("catalog.search")!.version,
    });
    expect(meta.catalog_search?.["vitrina/capability"]).toBe("catalog.search");
    for (const [alias, canonical] of [
      ["search_contacts", "contacts.search"],
      ["get_contact", "contacts.get"],
      ["get_conversation_history", "conversations.history"],
      ["check_stock", "inventory.check"],
      ["contacts_update", "contacts.update"],
    ]) {
      expect(meta[alias!]?.["vitrina/capability"]).toBe(canonical);
    }
    for (const own of ["send_message", "list_conversations", "create_quote"]) expect(meta[own]).toBeUndefined();
  });
});

describe("contacts_update's idempotency_key argument (item 9)", () => {
  it("is published in the input schema, required, and described", async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === "contacts_update")!;
    expect(tool.inputSchema.required).toContain("idempotency_key");
    expect(tool.inputSchema.properties!.idempotency_key).toMatchObject({
      type: "string",
      minLength: 1,
      maxLength: 255,
    });
    expect(tool.description).toMatch(/idempotency_key/);
  });

  it("runs the logical attempt from plain arguments: a retry replays, a changed input under the same key conflicts", async () => {
    const first = await call("contacts_update", {
      contact_id: h.contact.id,
      name: "María P.",
      idempotency_key: "rename-1",
    });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toEqual({ ok: true });
    expect(first._meta["vitrina/provenance"].freshness).toBe("live");
    expect((await h.storage.contacts.get(h.workspace.id, h.contact.id))!.name).toBe("María P.");

    const retry = await call("contacts_update", {
      contact_id: h.contact.id,
      name: "María P.",
      idempotency_key: "rename-1",
    });
    expect(retry.structuredContent).toEqual({ ok: true });
    expect(retry._meta["vitrina/provenance"].freshness).toBe("recorded");

    const reused = await call("contacts_update", {
      contact_id: h.contact.id,
      name: "Otra",
      idempotency_key: "rename-1",
    });
    expect(reused.isError).toBe(true);
    expect(reused._meta["vitrina/error"].code).toBe("idempotency_key_reused");
    expect((await h.storage.contacts.get(h.workspace.id, h.contact.id))!.name).toBe("María P.");
  });

  it("refuses a call without a key naming idempotency_key; still takes params._meta.idempotencyKey", async () => {
    const missing = await call("contacts_update", { contact_id: h.contact.id, name: "Sin clave" });
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toMatch(/idempotency_key: /);
    const viaMeta = await call(
      "contacts_update",
      { contact_id: h.contact.id, tags: ["vip", "meta"] },
      { idempotencyKey: "tags-1" },
    );
    expect(viaMeta.structuredContent).toEqual({ ok: true });
    const disagree = await call(
      "contacts_update",
      { contact_id: h.contact.id, tags: ["x"], idempotency_key: "a" },
      { idempotencyKey: "b" },
    );
    expect(disagree.isError).toBe(true);
    expect(disagree.content[0].text).toMatch(/idempotency_key: /);
  });
});

describe("portable JSON Schemas (item 13)", () => {
  it("no tool schema gives `type` as an array (nullable is anyOf [X, {type: null}])", async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(14);
    for (const tool of tools) {
      expect(typeArrays(tool.inputSchema), `${tool.name} input`).toEqual([]);
      expect(typeArrays(tool.outputSchema), `${tool.name} output`).toEqual([]);
    }
  });

  it("every schema compiles under Ajv in strict mode, and real results validate against their output schema", async () => {
    const ajv = new Ajv({ strict: true, validateFormats: false });
    const { tools } = await client.listTools();
    const validators = new Map(tools.map((t) => [t.name, ajv.compile(t.outputSchema!)]));
    for (const t of tools) ajv.compile(t.inputSchema);
    const results: Array<[string, Record<string, unknown>]> = [
      ["search_contacts", { query: "María" }],
      ["contacts_search", { query: "María" }],
      ["get_contact", { contact_id: h.contact.id }],
      ["contacts_get", { contact_id: h.contact.id }],
      ["get_conversation_history", { conversation_id: h.conversation.id }],
      ["conversations_history", { conversation_id: h.conversation.id }],
      ["query_catalog", {}],
      ["catalog_search", { search: "Depto" }],
      ["check_stock", { sku: "DEP-101" }],
      ["check_stock", { sku: "NOPE" }],
      ["inventory_check", { sku: "EST-01" }],
      ["list_conversations", {}],
      ["send_message", { conversation_id: h.conversation.id, text: "hola" }],
      ["create_quote", { items: [{ sku: "DEP-101", quantity: 1 }], contact_id: h.contact.id }],
      ["contacts_update", { contact_id: h.contact.id, email: "maria@example.com", idempotency_key: "email-1" }],
    ];
    for (const [name, args] of results) {
      const result = await call(name, args);
      expect(result.isError, `${name}: ${result.content?.[0]?.text}`).toBeFalsy();
      const validate = validators.get(name)!;
      expect(validate(result.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
