import { z } from "zod";
import { NotFoundError, ConflictError } from "../errors.js";
import { emitEvent } from "../events/emit-event.js";
import type { OrderRecord, PaymentRecord } from "../ports/commerce-records.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Storage } from "../ports/storage.js";
import { parseOrThrow } from "../validation.js";
import { fromMinor, toMinor } from "./money.js";

const confirmInput = z.strictObject({
  workspaceId: z.string().min(1),
  quoteId: z.string().min(1),
  decidedBy: z.string().min(1),
  approvedBy: z.string().min(1),
  erpReference: z.string().min(1).nullable().default(null),
});

const paymentInput = z.strictObject({
  workspaceId: z.string().min(1),
  orderId: z.string().min(1),
  amount: z.number().finite().positive(),
  method: z.string().min(1).max(40),
  providerReference: z.string().min(1).max(200).nullable().default(null),
});

/**
 * Orders from accepted quotes (`order.confirmed`, one order per quote) and the payments received
 * for them (`payment.succeeded`, idempotent on the provider's reference).
 */
export function createOrderService(deps: { storage: Storage; clock: Clock; ids: IdGenerator }) {
  const { storage, clock, ids } = deps;
  return {
    /** Confirms the order of an accepted quote, after it was synchronised with the ERP. */
    async confirm(input: z.input<typeof confirmInput>): Promise<OrderRecord> {
      const parsed = parseOrThrow(confirmInput, input, "order");
      return storage.transaction(async (tx) => {
        const quote = await tx.quotes.get(parsed.workspaceId, parsed.quoteId);
        if (quote === null) throw new NotFoundError(`quote ${parsed.quoteId} does not exist`);
        if (quote.status !== "accepted")
          throw new ConflictError(`quote ${quote.id} must be accepted before its order is confirmed`);
        const order: OrderRecord = {
          id: ids(),
          workspaceId: quote.workspaceId,
          contactId: quote.contactId,
          quoteId: quote.id,
          total: quote.total,
          currency: quote.currency,
          status: "confirmed",
          decidedBy: parsed.decidedBy,
          approvedBy: parsed.approvedBy,
          erpReference: parsed.erpReference,
          confirmedAt: clock.now().toISOString(),
        };
        await tx.orders.insert(order);
        await emitEvent(tx, deps, {
          workspaceId: order.workspaceId,
          type: "order.confirmed",
          data: {
            order_id: order.id,
            contact_id: order.contactId,
            total: order.total,
            currency: order.currency,
            decided_by: order.decidedBy,
            approved_by: order.approvedBy,
          },
        });
        return order;
      });
    },

    /** Records money received for an order, in the order's currency. */
    async recordPayment(input: z.input<typeof paymentInput>): Promise<PaymentRecord> {
      const parsed = parseOrThrow(paymentInput, input, "payment");
      return storage.transaction(async (tx) => {
        const order = await tx.orders.get(parsed.workspaceId, parsed.orderId);
        if (order === null) throw new NotFoundError(`order ${parsed.orderId} does not exist`);
        const payment: PaymentRecord = {
          id: ids(),
          workspaceId: order.workspaceId,
          orderId: order.id,
          contactId: order.contactId,
          amount: fromMinor(toMinor(parsed.amount, order.currency, "amount"), order.currency),
          currency: order.currency,
          method: parsed.method,
          providerReference: parsed.providerReference,
          receivedAt: clock.now().toISOString(),
        };
        await tx.payments.insert(payment);
        await emitEvent(tx, deps, {
          workspaceId: order.workspaceId,
          type: "payment.succeeded",
          data: {
            payment_id: payment.id,
            order_id: order.id,
            contact_id: order.contactId,
            amount: payment.amount,
            currency: payment.currency,
            method: payment.method,
            provider_reference: payment.providerReference,
          },
        });
        return payment;
      });
    },
  };
}
export type OrderService = ReturnType<typeof createOrderService>;
