import { z } from "zod";
import { NotFoundError, VitrinaError } from "../errors.js";
import type { Storage } from "../ports/storage.js";
import type { PriceLookup, QuoteOperations } from "./mcp-options.js";
import { zodTool, type ToolDefinition } from "./tool-definition.js";

export const FINANCIAL_TOOLS_DISABLED_MESSAGE =
  "create_quote is disabled: financial tools are off in this version of Vitrina. " +
  "The server operator can enable them with createVitrina({ mcp: { enableFinancialTools: true } }).";

const input = z.strictObject({
  items: z
    .array(z.strictObject({ sku: z.string().min(1), quantity: z.number().int().min(1) }))
    .min(1)
    .max(100)
    .describe("Products to quote, each with a positive whole quantity"),
  // Beyond the spec's `items`: a quote is issued to a contact, so one of these says to whom.
  contact_id: z.string().min(1).optional().describe("The contact the quote is for"),
  conversation_id: z.string().min(1).optional().describe("The conversation the quote belongs to (its contact is used)"),
});

const output = z.strictObject({
  quote_id: z.string(),
  contact_id: z.string(),
  conversation_id: z.string().nullable(),
  currency: z.string(),
  items: z.array(
    z.strictObject({
      sku: z.string(),
      name: z.string().nullable(),
      quantity: z.number(),
      unit_price: z.number(),
      line_total: z.number(),
    }),
  ),
  subtotal: z.number(),
  vat_rate: z.number(),
  vat: z.number(),
  total: z.number(),
  created_at: z.string(),
});

export interface QuoteToolDeps {
  enabled: boolean;
  storage: Storage;
  quotes: QuoteOperations | undefined;
  prices: PriceLookup | undefined;
}

/** Whom the quote is for: the given contact, or the conversation's (they must agree when both are given). */
async function resolveRecipient(storage: Storage, workspaceId: string, args: z.output<typeof input>) {
  if (args.conversation_id === undefined) {
    if (args.contact_id === undefined)
      throw new VitrinaError(
        "invalid_argument",
        "create_quote needs contact_id or conversation_id: a quote is issued to a contact",
      );
    return { contactId: args.contact_id, conversationId: null };
  }
  const conversation = await storage.conversations.get(workspaceId, args.conversation_id);
  if (conversation === null) throw new NotFoundError(`conversation ${args.conversation_id} does not exist`);
  if (args.contact_id !== undefined && args.contact_id !== conversation.contactId) {
    throw new VitrinaError(
      "invalid_argument",
      `conversation ${conversation.id} belongs to another contact than ${args.contact_id}`,
    );
  }
  return { contactId: conversation.contactId, conversationId: conversation.id };
}

/**
 * `create_quote`: always listed (the spec counts 8 tools), refusing with a tool error while
 * financial tools are disabled. Enabled, it prices each line from the catalog (never from the
 * caller) and the quote operation computes VAT and total, stores the quote and emits `quote.created`.
 */
export function createQuoteTool(deps: QuoteToolDeps): ToolDefinition {
  return zodTool({
    name: "create_quote",
    title: "Create quote",
    description:
      "Creates a quote for products by SKU and quantity, for a contact (contact_id, or the contact of conversation_id); " +
      "the server prices each item from the catalog and computes VAT and total. Financial tool: disabled unless the server operator enabled financial tools.",
    input,
    output,
    // Each call issues a new quote (not idempotent); it only adds records (not destructive).
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    scope: { requiredScopes: ["quotes:write"], scopeMatch: "anyOf" },
    async run(args, { principal }) {
      if (!deps.enabled) throw new VitrinaError("forbidden", FINANCIAL_TOOLS_DISABLED_MESSAGE);
      if (deps.quotes === undefined || deps.prices === undefined) {
        throw new VitrinaError(
          "internal",
          "create_quote is enabled but no quote operation or price lookup is configured (mcp.quotes, mcp.prices)",
        );
      }
      const { workspaceId } = principal;
      const recipient = await resolveRecipient(deps.storage, workspaceId, args);
      const priced = await Promise.all(
        args.items.map(async (item) => {
          const price = await deps.prices!(workspaceId, item.sku);
          if (price === null) throw new NotFoundError(`sku ${item.sku} is not in the catalog or has no price`);
          return { ...item, ...price };
        }),
      );
      const quote = await deps.quotes.create({
        workspaceId,
        ...recipient,
        items: priced.map(({ sku, quantity, unitPrice }) => ({ sku, quantity, unitPrice })),
      });
      const names = new Map(priced.map((p) => [p.sku, p.name]));
      return {
        structured: {
          quote_id: quote.id,
          contact_id: quote.contactId,
          conversation_id: quote.conversationId,
          currency: quote.currency,
          items: quote.items.map((i) => ({
            sku: i.sku,
            name: names.get(i.sku) ?? null,
            quantity: i.quantity,
            unit_price: i.unitPrice,
            line_total: i.lineTotal,
          })),
          subtotal: quote.subtotal,
          vat_rate: quote.vatRate,
          vat: quote.vat,
          total: quote.total,
          created_at: quote.createdAt,
        },
      };
    },
  });
}
