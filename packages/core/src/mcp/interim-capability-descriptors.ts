import { z } from "zod";
import type { McpCapabilityDescriptor } from "./mcp-options.js";
import { jsonSchemaOf } from "./tool-definition.js";

/**
 * INTERIM, deleted when the capability registry is merged: the six capabilities' descriptors as
 * the spec's capability table gives them, so the 8 tools can be listed before `vitrina.capabilities`
 * exists. Afterwards the tools are built from the registry's own descriptors (schemas written once).
 */
const text = z.string().nullable().optional();
const num = z.number().nullable().optional();
const stringOrList = z.union([z.string(), z.array(z.string())]).nullable().optional();

export const catalogItemSchema = z.strictObject({
  sku: z.string(),
  name: text, source: text, currency: text, availability: text, image_url: text, description: text,
  location: text, delivery: text, address: text, developer: text,
  price: num, stock: num,
  amenities: stringOrList, typologies: stringOrList,
});

export const contactSchema = z.strictObject({
  name: text, phone: text, email: text,
  tags: z.array(z.string()).nullable().optional(),
  score: num, ltv: num,
});

export const contactSummarySchema = z.strictObject({ name: text, phone: text, email: text });

export const historyMessageSchema = z.strictObject({ sender: text, content: text, created_at: text });

export const stockResultSchema = z.strictObject({
  found: z.boolean(),
  sku: z.string().optional(),
  name: text, source: text, stock: num,
  available: z.boolean().optional(),
  availability: z.string().optional(),
  ambiguous: z.boolean().optional(),
  matches: z.array(z.strictObject({ sku: z.string(), name: z.string().nullable(), source: z.string().nullable() })).optional(),
});

const id = (what: string) => z.string().min(1).describe(`Id of the ${what}`);

export const capabilityInputs = {
  "catalog.search": z.strictObject({
    search: z.string().optional().describe("Product name or SKU to look for"),
    limit: z.number().int().min(0).max(100).optional().describe("Most items to return (0..100)"),
  }),
  "contacts.get": z.strictObject({ contact_id: id("contact") }),
  "contacts.search": z.strictObject({ query: z.string().min(1).describe("Name, phone or email to look for") }),
  "contacts.update": z.strictObject({
    contact_id: id("contact"),
    name: z.string().optional(), phone: z.string().optional(), email: z.string().optional(),
    tags: z.array(z.string()).optional(),
  }),
  "conversations.history": z.strictObject({
    conversation_id: id("conversation"),
    limit: z.number().int().min(0).max(200).optional().describe("Most messages to return (0..200), newest first"),
  }),
  "inventory.check": z.strictObject({ sku: z.string().min(1).describe("SKU of the product") }),
} as const;

export const capabilityOutputs = {
  "catalog.search": z.array(catalogItemSchema),
  "contacts.get": contactSchema,
  "contacts.search": z.array(contactSummarySchema),
  "contacts.update": z.strictObject({ ok: z.boolean(), error: z.string().optional() }),
  "conversations.history": z.array(historyMessageSchema),
  "inventory.check": stockResultSchema,
} as const;

export type CapabilityName = keyof typeof capabilityInputs;

const FACTS: Record<CapabilityName, Pick<McpCapabilityDescriptor, "version" | "summary" | "riskClass" | "requiredScopes" | "scopeMatch">> = {
  "catalog.search": { version: "1.0.0", summary: "Looks up products by name or SKU, with variants and images.", riskClass: "read", requiredScopes: ["catalog:read"], scopeMatch: "anyOf" },
  "contacts.get": { version: "1.0.0", summary: "Returns the full record of one contact.", riskClass: "read", requiredScopes: ["customers:read"], scopeMatch: "anyOf" },
  "contacts.search": { version: "1.0.0", summary: "Looks up workspace contacts by name, phone or email.", riskClass: "read", requiredScopes: ["customers:read"], scopeMatch: "anyOf" },
  "contacts.update": { version: "1.0.0", summary: "Changes basic contact data.", riskClass: "write", requiredScopes: ["customers:write"], scopeMatch: "allOf" },
  "conversations.history": { version: "1.0.0", summary: "Lists the messages of a conversation, most recent first.", riskClass: "read", requiredScopes: ["conversations:read"], scopeMatch: "anyOf" },
  "inventory.check": { version: "1.1.0", summary: "Checks stock of a product by SKU; can report ambiguity across providers.", riskClass: "read", requiredScopes: ["inventory:read"], scopeMatch: "anyOf" },
};

export function interimCapabilityDescriptor(name: string): McpCapabilityDescriptor | undefined {
  if (!(name in FACTS)) return undefined;
  const key = name as CapabilityName;
  return {
    name,
    ...FACTS[key],
    inputSchema: jsonSchemaOf(capabilityInputs[key], "input"),
    outputSchema: jsonSchemaOf(capabilityOutputs[key], "output"),
    idempotency: { required: key === "contacts.update" },
  };
}
