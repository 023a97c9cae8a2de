import type { InventoryProvider } from "../ports/inventory.js";
import { TIMED_OUT, withinDeadline } from "../within-deadline.js";
import { wholeNumberOption } from "./whole-number-option.js";

/** How long `inventory.check` waits for one inventory provider before answering without it. */
export const DEFAULT_INVENTORY_PROVIDER_TIMEOUT_MS = 5_000;

/** The option's value, or the default; `NaN` (an unset environment variable) would time out every provider at once. */
export function inventoryProviderTimeoutMs(value: number | undefined): number {
  return wholeNumberOption("capabilities.inventoryProviderTimeoutMs", value, {
    fallback: DEFAULT_INVENTORY_PROVIDER_TIMEOUT_MS,
    least: 1,
    unit: "milliseconds",
  });
}

/**
 * `provider` with a deadline: past `ms` its answer is given up (its signal aborts) and the call
 * fails like a provider that threw, so `inventory.check` answers from the other sources with
 * `fallbackUsed`. Without it, an ERP that accepted the connection and never answered held every
 * stock check (and the REST or MCP request behind it) open for as long as the socket lived.
 */
export function withStockDeadline(provider: InventoryProvider, ms: number): InventoryProvider {
  return {
    name: provider.name,
    ...(provider.authoritative !== undefined && { authoritative: provider.authoritative }),
    async checkStock(workspaceId, sku) {
      const answer = await withinDeadline((signal) => provider.checkStock(workspaceId, sku, { signal }), ms);
      if (answer === TIMED_OUT) throw new Error(`inventory provider ${provider.name} did not answer within ${ms} ms`);
      return answer;
    },
  };
}
