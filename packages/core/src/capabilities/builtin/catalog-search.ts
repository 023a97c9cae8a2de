import { z } from "zod";
import type { CatalogItemRecord, CatalogVariantRecord } from "../../ports/capability-records.js";
import { defineCapability } from "../definition.js";
import { DEFAULT_LIMITS, optionalNumber, optionalText, textOrList } from "./schema-parts.js";

/** One catalog item: only `sku` required, nothing beyond the spec's fields. */
export const catalogItemOutput = z.strictObject({
  sku: z.string(),
  name: optionalText,
  source: optionalText,
  currency: optionalText,
  availability: optionalText,
  image_url: optionalText,
  description: optionalText,
  location: optionalText,
  delivery: optionalText,
  address: optionalText,
  developer: optionalText,
  price: optionalNumber,
  stock: optionalNumber,
  amenities: textOrList,
  typologies: textOrList,
});
type CatalogItemOutput = z.input<typeof catalogItemOutput>;

function itemOutput(item: CatalogItemRecord, variant?: CatalogVariantRecord): CatalogItemOutput {
  return {
    sku: variant?.sku ?? item.sku,
    name: variant ? [item.name, variant.name].filter(Boolean).join(" – ") || null : item.name,
    source: item.source,
    currency: item.currency,
    availability: item.availability,
    image_url: item.images[0] ?? null,
    description: item.description,
    location: item.location,
    delivery: item.delivery,
    address: item.address,
    developer: item.developer,
    price: variant ? variant.price : item.price,
    stock: variant ? variant.stock : item.stock,
    amenities: item.amenities,
    typologies: item.typologies,
  };
}

/**
 * Each variant is answered as an item of its own (its SKU, price and stock, the rest inherited),
 * right after its parent, since the spec's item shape has no nested variants.
 */
export const catalogSearch = defineCapability({
  name: "catalog.search",
  version: "1.0.0",
  summary: "Looks up products by name or SKU, with variants and images.",
  execution: "query",
  riskClass: "read",
  requiredScopes: ["catalog:read"],
  scopeMatch: "anyOf",
  input: z.strictObject({
    search: z.string().optional().describe("Text contained in the product's name or SKU (case-insensitive)"),
    limit: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe(`Most items to return, 0..100; default ${DEFAULT_LIMITS.catalogSearch}`),
  }),
  output: z.array(catalogItemOutput),
  idempotency: { required: false, strategy: "none" },
  async run({ storage, workspaceId }, { search, limit = DEFAULT_LIMITS.catalogSearch }) {
    if (limit === 0) return { output: [] };
    const term = search?.toLowerCase() ?? "";
    const items = await storage.catalogItems.search(workspaceId, { search: search ?? "", limit });
    const rows = items.flatMap((item) => {
      const itemMatches = item.sku.toLowerCase().includes(term) || (item.name?.toLowerCase().includes(term) ?? false);
      const variants = item.variants.filter(
        (v) => itemMatches || v.sku.toLowerCase().includes(term) || (v.name?.toLowerCase().includes(term) ?? false),
      );
      return [...(itemMatches ? [itemOutput(item)] : []), ...variants.map((v) => itemOutput(item, v))];
    });
    return { output: rows.slice(0, limit) };
  },
});
