import { describe, expect, it } from "vitest";
import { capabilityHarness } from "./support/harness.js";

type Schema = Record<string, any>;

/** Every object node in a JSON Schema, with its path. */
function objectNodes(node: unknown, path = "#"): Array<[string, Schema]> {
  if (Array.isArray(node)) return node.flatMap((n, i) => objectNodes(n, `${path}/${i}`));
  if (node === null || typeof node !== "object") return [];
  const schema = node as Schema;
  const self: Array<[string, Schema]> = schema.type === "object" || "properties" in schema ? [[path, schema]] : [];
  return [...self, ...Object.entries(schema).flatMap(([k, v]) => objectNodes(v, `${path}/${k}`))];
}

// The spec's capability table, row by row.
const SPEC = [
  ["catalog.search", "1.0.0", "query", "read", ["catalog:read"], "anyOf", [], "none"],
  ["contacts.get", "1.0.0", "query", "read", ["customers:read"], "anyOf", ["contact_id"], "none"],
  ["contacts.search", "1.0.0", "query", "read", ["customers:read"], "anyOf", ["query"], "none"],
  ["contacts.update", "1.0.0", "command", "write", ["customers:write"], "allOf", ["contact_id"], "logical-attempt"],
  ["conversations.history", "1.0.0", "query", "read", ["conversations:read"], "anyOf", ["conversation_id"], "none"],
  ["inventory.check", "1.1.0", "query", "read", ["inventory:read"], "anyOf", ["sku"], "none"],
] as const;

describe("the catalog document", () => {
  it("lists the six capabilities exactly as the spec's table says", async () => {
    const { vitrina } = await capabilityHarness();
    const doc = vitrina.capabilities.catalog();
    expect(Object.keys(doc)).toEqual(["version", "generatedAt", "capabilities", "surfaces", "mcpServer"]);
    expect(doc.version).toBe("0.1.0");
    expect(doc.generatedAt).toBe("2026-03-01T12:00:00.000Z");
    expect(
      doc.capabilities.map((c) => [
        c.name,
        c.version,
        c.execution,
        c.riskClass,
        c.requiredScopes,
        c.scopeMatch,
        (c.inputSchema.required as string[] | undefined) ?? [],
        c.idempotency.strategy,
      ]),
    ).toEqual(SPEC);
    for (const c of doc.capabilities) {
      expect(c.summary.length).toBeGreaterThan(10);
      expect(c).toMatchObject({
        status: "AVAILABLE",
        deprecated: false,
        surfaces: { agentRuntime: "AVAILABLE", mcp: "IN_PROGRESS", rest: "PLANNED" },
        consistency: { level: "best_effort", maxStalenessMs: null },
        provenance: {
          source: "service_native",
          authoritativeDefault: false,
          freshnessFields: ["source", "observedAt", "freshness", "authoritative", "fallbackUsed"],
        },
      });
      expect(c.idempotency).toEqual(
        c.name === "contacts.update"
          ? {
              required: true,
              strategy: "logical-attempt",
              states: ["pending", "executing", "confirmed", "failed", "unknown"],
            }
          : { required: false, strategy: "none" },
      );
    }
  });

  it("has additionalProperties: false on every object of every schema", async () => {
    const { vitrina } = await capabilityHarness();
    for (const c of vitrina.capabilities.catalog().capabilities) {
      const nodes = [...objectNodes(c.inputSchema), ...objectNodes(c.outputSchema)];
      expect(nodes.length).toBeGreaterThan(0);
      for (const [path, node] of nodes)
        expect({ capability: c.name, path, additionalProperties: node.additionalProperties }).toMatchObject({
          additionalProperties: false,
        });
    }
  });

  it("publishes the output shapes of the spec's tables, required fields and nullability included", async () => {
    const { vitrina } = await capabilityHarness();
    const schemas = Object.fromEntries(vitrina.capabilities.catalog().capabilities.map((c) => [c.name, c]));
    const item = schemas["catalog.search"]!.outputSchema as Schema;
    expect(item.type).toBe("array");
    expect(item.items.required).toEqual(["sku"]);
    expect(Object.keys(item.items.properties).sort()).toEqual([
      "address",
      "amenities",
      "availability",
      "currency",
      "delivery",
      "description",
      "developer",
      "image_url",
      "location",
      "name",
      "price",
      "sku",
      "source",
      "stock",
      "typologies",
    ]);
    // Nullable as anyOf, never a `type` array: the portable form (Ajv strict, MCP Inspector).
    expect(item.items.properties.name).toEqual({ anyOf: [{ type: "string" }, { type: "null" }] });
    expect(item.items.properties.price).toEqual({ anyOf: [{ type: "number" }, { type: "null" }] });
    expect(item.items.properties.amenities).toEqual({
      anyOf: [{ anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }, { type: "null" }],
    });
    expect((schemas["catalog.search"]!.inputSchema as Schema).properties.limit).toMatchObject({
      type: "integer",
      minimum: 0,
      maximum: 100,
    });
    expect((schemas["conversations.history"]!.inputSchema as Schema).properties.limit).toMatchObject({
      type: "integer",
      minimum: 0,
      maximum: 200,
    });
    const stock = schemas["inventory.check"]!.outputSchema as Schema;
    expect(stock.required).toEqual(["found"]);
    expect(stock.properties.matches.items.required).toEqual(["sku", "name", "source"]);
    expect(schemas["contacts.update"]!.outputSchema).toMatchObject({
      required: ["ok"],
      properties: { ok: { type: "boolean" }, error: { type: "string" } },
    });
    expect((schemas["contacts.get"]!.outputSchema as Schema).required).toBeUndefined();
    expect((schemas["conversations.history"]!.outputSchema as Schema).items.required).toBeUndefined();
    expect(Object.keys((schemas["contacts.search"]!.outputSchema as Schema).items.properties)).toEqual([
      "name",
      "phone",
      "email",
    ]);
  });

  it("lists the five surfaces with the spec's statements and describes the MCP server", async () => {
    const { vitrina } = await capabilityHarness();
    const doc = vitrina.capabilities.catalog();
    expect(doc.surfaces).toEqual([
      { surface: "Agent Runtime", status: "AVAILABLE", detail: "6 canonical capabilities are active" },
      { surface: "MCP", status: "AVAILABLE", detail: "8 tools; financial tools are disabled in V1" },
      {
        surface: "Outgoing webhooks",
        status: "AVAILABLE",
        detail: "Outbox with HMAC signature, retries with backoff, delivery attempts every 30 seconds",
      },
      {
        surface: "REST API",
        status: "PLANNED",
        detail: "Will expose the same capability core; private preview before general access",
      },
      {
        surface: "A2A / UCP / AP2",
        status: "PLANNED",
        detail: "Will converge on the same capability core when the standard justifies it",
      },
    ]);
    expect(doc.mcpServer).toEqual({
      url: "/mcp",
      transport: "streamable-http",
      protocolVersion: "2025-06-18",
      name: "vitrina",
      version: "1.0.0",
      tools: 8,
      streaming: false,
      authentication: ["oauth2", "api_key"],
    });
  });
});
