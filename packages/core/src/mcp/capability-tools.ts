import type { ToolAnnotations } from "./tool-listing-types.js";
import { VitrinaError } from "../errors.js";
import type { CapabilityDescriptor } from "../capabilities/definition.js";
import { IDEMPOTENCY_SEMANTICS, takeIdempotencyKey, withIdempotencyArgument } from "./idempotency-argument.js";
import type { CapabilitySource } from "./mcp-options.js";
import type { JsonObjectSchema, ToolDefinition } from "./tool-definition.js";

/** The six capabilities of the spec, which MCP can also expose under their canonical names. */
export const SPEC_CAPABILITIES = [
  "catalog.search",
  "contacts.get",
  "contacts.search",
  "contacts.update",
  "conversations.history",
  "inventory.check",
];

/** The `_meta` key naming a tool's capability, on its tools/list entry and on each result. */
export const CAPABILITY_META = "vitrina/capability";

/** The legacy MCP names of the spec, each backed by one capability. */
const LEGACY_TOOLS: Array<[tool: string, title: string, capability: string]> = [
  ["search_contacts", "Search contacts", "contacts.search"],
  ["get_contact", "Get contact", "contacts.get"],
  ["get_conversation_history", "Get conversation history", "conversations.history"],
  ["query_catalog", "Query catalog", "catalog.search"],
  ["check_stock", "Check stock", "inventory.check"],
];

// What a descriptor cannot say: inventory.check may ask external inventory providers (ERP,
// e-commerce), an open world whose answers change; the other five read our own storage.
const OPEN_WORLD = new Set(["inventory.check"]);

/** Honest hints from the descriptor: reads are read-only and repeatable; writes may overwrite. */
function annotationsOf(d: CapabilityDescriptor): ToolAnnotations {
  const read = d.riskClass === "read";
  return {
    readOnlyHint: read,
    destructiveHint: !read,
    // A query, or a command under a logical attempt (same key, same effect), is idempotent.
    idempotentHint: read || d.idempotency.required,
    openWorldHint: OPEN_WORLD.has(d.name),
  };
}

/** `structuredContent` is an object, so an array output is published and returned as `{ items }`. */
function outputSchemaOf(d: CapabilityDescriptor): { schema: JsonObjectSchema; wrap: boolean } {
  if (d.outputSchema.type !== "array") return { schema: d.outputSchema as JsonObjectSchema, wrap: false };
  return {
    schema: { type: "object", properties: { items: d.outputSchema }, required: ["items"], additionalProperties: false },
    wrap: true,
  };
}

function capabilityTool(
  name: string,
  title: string,
  d: CapabilityDescriptor,
  source: CapabilitySource,
): ToolDefinition {
  const output = outputSchemaOf(d);
  const keyed = d.idempotency.required;
  const inputSchema = d.inputSchema as JsonObjectSchema;
  return {
    name,
    title,
    description: `${d.summary} (capability ${d.name} ${d.version})${keyed ? ` ${IDEMPOTENCY_SEMANTICS}` : ""}`,
    inputSchema: keyed ? withIdempotencyArgument(inputSchema) : inputSchema,
    outputSchema: output.schema,
    annotations: annotationsOf(d),
    // Machine-readable link from any alias (query_catalog) to the capability it runs (catalog.search).
    meta: { [CAPABILITY_META]: d.name, "vitrina/capabilityVersion": d.version },
    scope: { requiredScopes: d.requiredScopes, scopeMatch: d.scopeMatch },
    async run(args, { principal, meta }) {
      // The runtime validates the arguments against the same schema tools/list published.
      const { input, key } = keyed ? takeIdempotencyKey(args, meta) : { input: args, key: undefined };
      const { output: result, provenance } = await source.invoke(d.name, input, {
        principal: { ...principal, actorId: principal.keyId },
        ...(key !== undefined && { idempotencyKey: key }),
      });
      const structured = output.wrap ? { items: result } : (result as Record<string, unknown>);
      return { structured, meta: { [CAPABILITY_META]: d.name, "vitrina/provenance": provenance } };
    },
  };
}

function describe(source: CapabilitySource, capability: string): CapabilityDescriptor {
  const descriptor = source.descriptor(capability);
  if (descriptor === undefined)
    throw new VitrinaError("internal", `the MCP tools need capability ${capability}, which is not registered`);
  return descriptor;
}

/** search_contacts, get_contact, get_conversation_history, query_catalog, check_stock. */
export function legacyCapabilityTools(source: CapabilitySource): ToolDefinition[] {
  return LEGACY_TOOLS.map(([name, title, capability]) =>
    capabilityTool(name, title, describe(source, capability), source),
  );
}

/**
 * The six capabilities under their canonical names, as extra tools: `inventory_check` or
 * `inventory.check`. Dots are legal MCP tool names, but some popular clients reject a whole tool
 * list containing one, so `underscore` is the safe choice and `dotted` an opt-in.
 */
export function canonicalCapabilityTools(source: CapabilitySource, style: "underscore" | "dotted"): ToolDefinition[] {
  return SPEC_CAPABILITIES.map((capability) =>
    capabilityTool(
      style === "dotted" ? capability : capability.replace(".", "_"),
      capability,
      describe(source, capability),
      source,
    ),
  );
}
