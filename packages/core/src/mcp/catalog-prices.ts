import type { Storage } from "../ports/storage.js";
import type { PriceLookup } from "./mcp-options.js";

/**
 * Prices a SKU from the workspace catalog: the item's own price, or a variant's (named after its
 * item, as catalog.search names it). Null when the SKU is unknown or has no price, so
 * `create_quote` never prices from what the caller says.
 */
export function catalogPriceLookup(storage: Pick<Storage, "catalogItems">): PriceLookup {
  return async (workspaceId, sku) => {
    const wanted = sku.toLowerCase();
    for (const item of await storage.catalogItems.findBySku(workspaceId, sku)) {
      if (item.sku.toLowerCase() === wanted)
        return item.price === null ? null : { unitPrice: item.price, name: item.name };
      const variant = item.variants.find((v) => v.sku.toLowerCase() === wanted);
      if (variant !== undefined) {
        const name = [item.name, variant.name].filter(Boolean).join(" – ") || null;
        return variant.price === null ? null : { unitPrice: variant.price, name };
      }
    }
    return null;
  };
}
