import { z } from "zod";
import type { CatalogItemRecord } from "../../ports/capability-records.js";
import type { InventoryMatch, InventoryProvider } from "../../ports/inventory.js";
import { defineCapability, type CapabilityContext } from "../definition.js";

/** The native catalog's name as a `source`, matching the descriptor's provenance source. */
export const NATIVE_SOURCE = "service_native";

interface SourcedMatch extends InventoryMatch {
  source: string;
  authoritative: boolean;
}

function nativeMatches(items: CatalogItemRecord[], sku: string): SourcedMatch[] {
  const wanted = sku.toLowerCase();
  return items.flatMap((item): SourcedMatch[] => {
    const base = { source: item.source ?? NATIVE_SOURCE, authoritative: false };
    if (item.sku.toLowerCase() === wanted) {
      return [
        {
          ...base,
          sku: item.sku,
          name: item.name,
          stock: item.stock,
          ...(item.availability && { availability: item.availability }),
        },
      ];
    }
    return item.variants
      .filter((v) => v.sku.toLowerCase() === wanted)
      .map((v) => ({
        ...base,
        sku: v.sku,
        name: [item.name, v.name].filter(Boolean).join(" – ") || null,
        stock: v.stock,
      }));
  });
}

/** Asks every provider at once; one that fails is left out and reported as `fallbackUsed`. */
async function providerMatches(providers: readonly InventoryProvider[], workspaceId: string, sku: string) {
  const answers = await Promise.allSettled(providers.map((p) => p.checkStock(workspaceId, sku)));
  const matches = answers.flatMap((answer, i): SourcedMatch[] => {
    const provider = providers[i]!;
    if (answer.status === "rejected") return [];
    return answer.value.map((m) => ({ ...m, source: provider.name, authoritative: provider.authoritative ?? false }));
  });
  return { matches, someFailed: answers.some((a) => a.status === "rejected") };
}

function availabilityOf(match: InventoryMatch): string {
  if (match.availability !== undefined) return match.availability;
  if (match.stock === null) return "unknown";
  return match.stock > 0 ? "in_stock" : "out_of_stock";
}

async function checkEverywhere({ storage, workspaceId, inventoryProviders }: CapabilityContext, sku: string) {
  const [items, external] = await Promise.all([
    storage.catalogItems.findBySku(workspaceId, sku),
    providerMatches(inventoryProviders, workspaceId, sku),
  ]);
  return { matches: [...nativeMatches(items, sku), ...external.matches], fallbackUsed: external.someFailed };
}

/**
 * One match answers with its stock. Several (the same SKU in the native catalog and an ERP, say)
 * answer `ambiguous: true` with every match and no stock figure: picking one would be a guess.
 */
export const inventoryCheck = defineCapability({
  name: "inventory.check",
  version: "1.1.0",
  summary: "Checks stock of a product by SKU; can report ambiguity across providers.",
  execution: "query",
  riskClass: "read",
  requiredScopes: ["inventory:read"],
  scopeMatch: "anyOf",
  input: z.strictObject({ sku: z.string().min(1).describe("SKU of the product (case-insensitive)") }),
  output: z.strictObject({
    found: z.boolean(),
    sku: z.string().optional(),
    name: z.string().nullable().optional(),
    source: z.string().nullable().optional(),
    stock: z.number().nullable().optional(),
    available: z.boolean().optional(),
    availability: z.string().optional(),
    ambiguous: z.boolean().optional(),
    matches: z
      .array(z.strictObject({ sku: z.string(), name: z.string().nullable(), source: z.string().nullable() }))
      .optional(),
  }),
  idempotency: { required: false, strategy: "none" },
  async run(context, { sku }) {
    const { matches, fallbackUsed } = await checkEverywhere(context, sku);
    const listed = matches.map((m) => ({ sku: m.sku, name: m.name, source: m.source }));
    const [only] = matches;
    if (only === undefined) {
      return { output: { found: false, sku, ambiguous: false, matches: [] }, provenance: { fallbackUsed } };
    }
    if (matches.length > 1) {
      const output = {
        found: true,
        sku,
        name: null,
        source: null,
        stock: null,
        availability: "ambiguous",
        ambiguous: true,
        matches: listed,
      };
      return { output, provenance: { source: "aggregated", fallbackUsed } };
    }
    const availability = availabilityOf(only);
    return {
      output: {
        found: true,
        sku: only.sku,
        name: only.name,
        source: only.source,
        stock: only.stock,
        available: availability === "in_stock" || (only.stock ?? 0) > 0,
        availability,
        ambiguous: false,
        matches: listed,
      },
      provenance: { source: only.source, authoritative: only.authoritative, fallbackUsed },
    };
  },
});
