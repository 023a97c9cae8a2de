import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { ScopeRequirement } from "./authenticator.js";
import { capabilityInputs, capabilityOutputs, type CapabilityName } from "./capability-schemas.js";
import type { CapabilityInvoker } from "./mcp-options.js";
import type { ToolDefinition } from "./tool-definition.js";

interface CapabilityFacts {
  summary: string;
  scope: ScopeRequirement;
  annotations: ToolAnnotations;
}

// Reads of our own storage: no side effects, same answer twice, closed world.
const ownRead: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * What the registry's descriptors say about each capability (spec: capability table). Interim:
 * read from `vitrina.capabilities` descriptors once merged.
 */
const CAPABILITIES: Record<CapabilityName, CapabilityFacts> = {
  "catalog.search": { summary: "Looks up products by name or SKU, with variants and images.", scope: { scopes: ["catalog:read"], match: "anyOf" }, annotations: ownRead },
  "contacts.get": { summary: "Returns the full record of one contact.", scope: { scopes: ["customers:read"], match: "anyOf" }, annotations: ownRead },
  "contacts.search": { summary: "Looks up workspace contacts by name, phone or email.", scope: { scopes: ["customers:read"], match: "anyOf" }, annotations: ownRead },
  "contacts.update": {
    summary: "Changes basic contact data (name, phone, email, tags).",
    scope: { scopes: ["customers:write"], match: "allOf" },
    // Overwrites fields (destructive); the same update twice leaves the same record (idempotent).
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  "conversations.history": { summary: "Lists the messages of a conversation, most recent first.", scope: { scopes: ["conversations:read"], match: "anyOf" }, annotations: ownRead },
  "inventory.check": {
    summary: "Checks stock of a product by SKU; can report ambiguity across providers.",
    scope: { scopes: ["inventory:read"], match: "anyOf" },
    // Stock may come from external inventory providers: an open world, answers change over time.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
};

/** The legacy MCP names of the spec, each backed by one capability. */
const LEGACY_NAMES: Array<[tool: string, title: string, capability: CapabilityName]> = [
  ["search_contacts", "Search contacts", "contacts.search"],
  ["get_contact", "Get contact", "contacts.get"],
  ["get_conversation_history", "Get conversation history", "conversations.history"],
  ["query_catalog", "Query catalog", "catalog.search"],
  ["check_stock", "Check stock", "inventory.check"],
];

const WRAPPED_IN_ITEMS = new Set<CapabilityName>(["catalog.search", "contacts.search", "conversations.history"]);

function capabilityTool(name: string, title: string, capability: CapabilityName, invoker: CapabilityInvoker): ToolDefinition {
  const facts = CAPABILITIES[capability];
  return {
    name,
    title,
    description: `${facts.summary} (capability ${capability})`,
    input: capabilityInputs[capability],
    output: capabilityOutputs[capability],
    annotations: facts.annotations,
    scope: facts.scope,
    async run(input, { principal, meta }) {
      const idempotencyKey = typeof meta?.idempotencyKey === "string" ? meta.idempotencyKey : undefined;
      const { output, provenance } = await invoker.invoke(capability, input, { principal, ...(idempotencyKey && { idempotencyKey }) });
      const structured = WRAPPED_IN_ITEMS.has(capability) ? { items: output } : (output as Record<string, unknown>);
      return { structured, meta: { "vitrina/capability": capability, "vitrina/provenance": provenance } };
    },
  };
}

/** search_contacts, get_contact, get_conversation_history, query_catalog, check_stock. */
export function legacyCapabilityTools(invoker: CapabilityInvoker): ToolDefinition[] {
  return LEGACY_NAMES.map(([name, title, capability]) => capabilityTool(name, title, capability, invoker));
}

/**
 * The six capabilities under their canonical names, as extra tools: `inventory_check` or
 * `inventory.check`. Dots are legal MCP tool names, but some popular clients reject a whole tool
 * list containing one, so `underscore` is the safe choice and `dotted` an opt-in.
 */
export function canonicalCapabilityTools(invoker: CapabilityInvoker, style: "underscore" | "dotted"): ToolDefinition[] {
  return (Object.keys(CAPABILITIES) as CapabilityName[]).map((capability) =>
    capabilityTool(style === "dotted" ? capability : capability.replace(".", "_"), capability, capability, invoker),
  );
}
