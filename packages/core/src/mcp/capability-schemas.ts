import { z } from "zod";

/**
 * The input and output shapes of the six capabilities, as the spec's capability table gives them.
 * Interim copy: once the capability registry is merged, the tools take these from its descriptors
 * so a capability's schema is written once (ARCHITECTURE: schemas written once in zod).
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

/** Capability outputs as MCP `structuredContent` (always an object: arrays wrapped in `items`). */
export const capabilityOutputs = {
  "catalog.search": z.strictObject({ items: z.array(catalogItemSchema) }),
  "contacts.get": contactSchema,
  "contacts.search": z.strictObject({ items: z.array(contactSummarySchema) }),
  "contacts.update": z.strictObject({ ok: z.boolean(), error: z.string().optional() }),
  "conversations.history": z.strictObject({ items: z.array(historyMessageSchema) }),
  "inventory.check": stockResultSchema,
} as const;

export type CapabilityName = keyof typeof capabilityInputs;
