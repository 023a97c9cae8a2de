import type { OrderRecord, PaymentRecord, QuoteRecord } from "./commerce-records.js";

export interface QuoteRepository {
  insert(quote: QuoteRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<QuoteRecord | null>;
  /**
   * Writes the whole record (by id); false when it does not exist. It overwrites every column with
   * what the caller read, so under concurrency it can undo an acceptance committed meanwhile: core
   * uses `accept` instead. Only for tests and tools that serialise their writes to the quote themselves.
   */
  update(quote: QuoteRecord): Promise<boolean>;
  /**
   * Marks the quote `accepted` with `acceptedAt = at` only if it is still `issued`, in one
   * conditional write, so of two concurrent acceptances exactly one wins. Returns the accepted
   * record, or null when it does not exist or is no longer `issued` (read it to tell which).
   */
  accept(workspaceId: string, id: string, at: string): Promise<QuoteRecord | null>;
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
