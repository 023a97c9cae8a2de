import type { OrderRecord, PaymentRecord, QuoteRecord } from "./commerce-records.js";

export interface QuoteRepository {
  insert(quote: QuoteRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<QuoteRecord | null>;
  /** Writes the whole record (by id); false when it does not exist. */
  update(quote: QuoteRecord): Promise<boolean>;
}

export interface OrderRepository {
  /** Fails with `conflict` when the quote already has an order (one order per quote). */
  insert(order: OrderRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<OrderRecord | null>;
}

export interface PaymentRepository {
  /** Fails with `conflict` when (workspace, providerReference) was already recorded. */
  insert(payment: PaymentRecord): Promise<void>;
  /** Oldest first. */
  listByOrder(orderId: string): Promise<PaymentRecord[]>;
}
