import { z } from "zod";
import { VitrinaError } from "../errors.js";
import type { QuoteOperations } from "./mcp-options.js";
import { zodTool, type ToolDefinition } from "./tool-definition.js";

export const FINANCIAL_TOOLS_DISABLED_MESSAGE =
  "create_quote is disabled: financial tools are off in this version of Vitrina. " +
  "The server operator can enable them with createVitrina({ mcp: { enableFinancialTools: true } }).";

const quoteLine = z.strictObject({
  sku: z.string(),
  name: z.string().nullable(),
  quantity: z.number(),
  unit_price: z.number(),
  line_total: z.number(),
});

/**
 * `create_quote`: always listed (the spec counts 8 tools), refusing with a tool error while
 * financial tools are disabled. Enabled, the quote operation prices each line from the catalog,
 * computes VAT and total, stores the quote and emits `quote.created`.
 */
export function createQuoteTool(options: { enabled: boolean; quotes: QuoteOperations | undefined }): ToolDefinition {
  return zodTool({
    name: "create_quote",
    title: "Create quote",
    description:
      "Creates a quote for products by SKU and quantity; the server prices each item from the catalog and computes VAT and total. " +
      "Financial tool: disabled unless the server operator enabled financial tools.",
    input: z.strictObject({
      items: z
        .array(z.strictObject({ sku: z.string().min(1), quantity: z.number().int().min(1) }))
        .min(1)
        .max(100)
        .describe("Products to quote, each with a positive whole quantity"),
    }),
    output: z.strictObject({
      quote_id: z.string(),
      currency: z.string(),
      items: z.array(quoteLine),
      subtotal: z.number(),
      vat_rate: z.number(),
      vat: z.number(),
      total: z.number(),
      created_at: z.string(),
    }),
    // Each call issues a new quote (not idempotent); it only adds records (not destructive).
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    scope: { scopes: ["quotes:write"], match: "anyOf" },
    async run(input, { principal }) {
      if (!options.enabled) throw new VitrinaError("forbidden", FINANCIAL_TOOLS_DISABLED_MESSAGE);
      if (options.quotes === undefined) {
        throw new VitrinaError("internal", "create_quote is enabled but no quote operation is configured (mcp.quotes)");
      }
      const quote = await options.quotes.create({
        workspaceId: principal.workspaceId,
        createdBy: principal.keyId,
        items: input.items,
      });
      return { structured: quote };
    },
  });
}
