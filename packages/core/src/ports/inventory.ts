/**
 * An external source of stock (an ERP, an e-commerce platform). `inventory.check` asks the
 * native catalog and every provider; a SKU found in more than one place is reported as ambiguous
 * instead of guessing which one the caller meant.
 */
export interface InventoryProvider {
  /** Shown as `source` in answers, e.g. `erp` or `shopify`. */
  name: string;
  /** True when this provider is the system of record for stock (sets provenance `authoritative`). */
  authoritative?: boolean;
  /**
   * Every item this provider holds under `sku`; an empty list when none. May throw when unreachable.
   * `signal` aborts when Vitrina stops waiting (`capabilities.inventoryProviderTimeoutMs`): pass it
   * to `fetch` so the request is dropped too.
   */
  checkStock(workspaceId: string, sku: string, options?: { signal: AbortSignal }): Promise<InventoryMatch[]>;
}

export interface InventoryMatch {
  sku: string;
  name: string | null;
  stock: number | null;
  /** Free text such as `in_stock`, `reserved`; derived from `stock` when absent. */
  availability?: string;
}
