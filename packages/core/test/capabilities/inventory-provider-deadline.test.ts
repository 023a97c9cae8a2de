import { describe, expect, it, vi } from "vitest";
import type { InventoryProvider } from "@vitrina/core";
import { capabilityHarness } from "./support/harness.js";

/** A provider whose ERP accepted the connection and never answers; it records the signal it was given. */
function silentProvider() {
  const signals: AbortSignal[] = [];
  const provider: InventoryProvider = {
    name: "erp",
    checkStock: (_workspaceId, _sku, options) => {
      if (options?.signal) signals.push(options.signal);
      return new Promise(() => {});
    },
  };
  return { provider, signals };
}

describe("inventory.check with a provider that never answers", () => {
  it("answers from the other sources once the provider's deadline passes, as fallbackUsed, and aborts its signal", async () => {
    const { provider, signals } = silentProvider();
    const { invoke } = await capabilityHarness({
      inventoryProviders: [provider],
      capabilities: { inventoryProviderTimeoutMs: 50 },
    });
    const started = performance.now();
    const answer = await invoke("inventory.check", { sku: "BOS-220" });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(answer.output).toMatchObject({ found: true, sku: "BOS-220", source: "service_native", ambiguous: false });
    expect(answer.provenance).toMatchObject({ source: "service_native", fallbackUsed: true });
    expect(signals.map((s) => s.aborted)).toEqual([true]);
  }, 3_000);

  it("has a 5 s deadline by default, and leaves a provider that answers within it alone", async () => {
    const { provider } = silentProvider();
    const late: InventoryProvider = {
      name: "slow-erp",
      checkStock: (_w, sku) =>
        new Promise((resolve) => setTimeout(() => resolve([{ sku, name: null, stock: 3 }]), 4_900)),
    };
    const { invoke } = await capabilityHarness({ inventoryProviders: [provider, late] });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let settled = false;
      const call = invoke("inventory.check", { sku: "ERP-1" }).finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(4_999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const answer = await call;
      expect(answer.output).toMatchObject({ found: true, source: "slow-erp", stock: 3 });
      expect(answer.provenance.fallbackUsed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses a timeout that is not a positive integer, naming the option", async () => {
    for (const inventoryProviderTimeoutMs of [Number.NaN, 0, -1, 1.5]) {
      await expect(capabilityHarness({ capabilities: { inventoryProviderTimeoutMs } })).rejects.toMatchObject({
        code: "invalid_argument",
        reasons: [{ field: "capabilities.inventoryProviderTimeoutMs" }],
      });
    }
  });
});
