import { z } from "zod";
import { NotFoundError, ConflictError } from "../errors.js";
import { emitEvent } from "../events/emit-event.js";
import type { QuoteRecord } from "../ports/commerce-records.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { WorkspaceRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import { parseOrThrow } from "../validation.js";
import { exactMinor, fromMinor, toMinor, vatOf } from "./money.js";

/** VAT as a fraction per workspace. Default: 19 % for CLP (Chile's IVA), 0 otherwise. */
export type VatRate = number | ((workspace: WorkspaceRecord) => number);
export const defaultVatRate: VatRate = (workspace) => (workspace.currency === "CLP" ? 0.19 : 0);

const acceptInput = z.strictObject({ workspaceId: z.string().min(1), quoteId: z.string().min(1) });
const createInput = z.strictObject({
  workspaceId: z.string().min(1),
  contactId: z.string().min(1),
  conversationId: z.string().min(1).nullable().default(null),
  items: z
    .array(
      z.strictObject({
        sku: z.string().min(1).max(100),
        quantity: z.number().int().positive(),
        unitPrice: z.number().finite().nonnegative(),
      }),
    )
    .min(1, "a quote needs at least one item")
    .max(200),
});

/** Quotes priced by the server: line totals, subtotal, VAT and total computed here, never trusted from input. */
export function createQuoteService(deps: { storage: Storage; clock: Clock; ids: IdGenerator; vatRate: VatRate }) {
  const { storage, clock, ids } = deps;
  return {
    async create(input: z.input<typeof createInput>): Promise<QuoteRecord> {
      const parsed = parseOrThrow(createInput, input, "quote");
      return storage.transaction(async (tx) => {
        const workspace = await tx.workspaces.get(parsed.workspaceId);
        if (workspace === null) throw new NotFoundError(`workspace ${parsed.workspaceId} does not exist`);
        if ((await tx.contacts.get(workspace.id, parsed.contactId)) === null)
          throw new NotFoundError(`contact ${parsed.contactId} does not exist`);
        const currency = workspace.currency;
        const vatRate = typeof deps.vatRate === "function" ? deps.vatRate(workspace) : deps.vatRate;
        const lines = parsed.items.map((item, i) => ({
          ...item,
          minor: exactMinor(
            toMinor(item.unitPrice, currency, `items.${i}.unitPrice`) * item.quantity,
            `items.${i}`,
            "quantity × unitPrice",
          ),
        }));
        const subtotalMinor = exactMinor(
          lines.reduce((sum, line) => sum + line.minor, 0),
          "items",
          "the subtotal",
        );
        const vatMinor = vatOf(subtotalMinor, vatRate);
        exactMinor(subtotalMinor + vatMinor, "items", "the total with VAT");
        const quote: QuoteRecord = {
          id: ids(),
          workspaceId: workspace.id,
          contactId: parsed.contactId,
          conversationId: parsed.conversationId,
          currency,
          items: lines.map(({ sku, quantity, unitPrice, minor }) => ({
            sku,
            quantity,
            unitPrice,
            lineTotal: fromMinor(minor, currency),
          })),
          subtotal: fromMinor(subtotalMinor, currency),
          vatRate,
          vat: fromMinor(vatMinor, currency),
          total: fromMinor(subtotalMinor + vatMinor, currency),
          status: "issued",
          createdAt: clock.now().toISOString(),
          acceptedAt: null,
        };
        await tx.quotes.insert(quote);
        await emitEvent(tx, deps, {
          workspaceId: workspace.id,
          type: "quote.created",
          data: {
            quote_id: quote.id,
            contact_id: quote.contactId,
            conversation_id: quote.conversationId,
            currency,
            items: quote.items.map((i) => ({
              sku: i.sku,
              quantity: i.quantity,
              unit_price: i.unitPrice,
              line_total: i.lineTotal,
            })),
            subtotal: quote.subtotal,
            vat_rate: vatRate,
            vat: quote.vat,
            total: quote.total,
          },
        });
        return quote;
      });
    },

    /** The customer accepted: `issued` → `accepted`, once (`conflict` the second time). */
    async accept(input: z.input<typeof acceptInput>): Promise<QuoteRecord> {
      const { workspaceId, quoteId } = parseOrThrow(acceptInput, input, "quote acceptance");
      return storage.transaction(async (tx) => {
        // One conditional write, not read-then-write: on PostgreSQL (READ COMMITTED) two concurrent
        // acceptances both read `issued` and both won, emitting `quote.accepted` twice.
        const accepted = await tx.quotes.accept(workspaceId, quoteId, clock.now().toISOString());
        if (accepted === null) {
          const existing = await tx.quotes.get(workspaceId, quoteId);
          if (existing === null) throw new NotFoundError(`quote ${quoteId} does not exist`);
          throw new ConflictError(`quote ${existing.id} is already ${existing.status}`);
        }
        await emitEvent(tx, deps, {
          workspaceId: accepted.workspaceId,
          type: "quote.accepted",
          data: {
            quote_id: accepted.id,
            contact_id: accepted.contactId,
            total: accepted.total,
            currency: accepted.currency,
            accepted_at: accepted.acceptedAt!,
          },
        });
        return accepted;
      });
    },
  };
}
export type QuoteService = ReturnType<typeof createQuoteService>;
