import { describe, expect, it } from "vitest";
import type { InventoryProvider } from "@vitrina/core";
import { capabilityHarness } from "./support/harness.js";

describe("the six capabilities end to end on memory storage", () => {
  it("catalog.search matches name or SKU case-insensitively, variants as items of their own", async () => {
    const { invoke } = await capabilityHarness();
    const { output, provenance } = await invoke("catalog.search", { search: "mirador" });
    expect((output as Array<{ sku: string }>).map((i) => i.sku)).toEqual(["MIR-101", "MIR-101-1D", "MIR-101-2D"]);
    expect((output as unknown[])[0]).toEqual({
      sku: "MIR-101",
      name: "Edificio Mirador Ñuñoa",
      source: "service_native",
      currency: "CLP",
      availability: "in_stock",
      image_url: "https://images.example.cl/mir-101/cover.jpg",
      description: expect.any(String),
      location: "Ñuñoa, Santiago",
      delivery: "Entrega inmediata",
      address: "Av. Irarrázaval 2450",
      developer: "Inmobiliaria Andes",
      price: 98_000_000,
      stock: 4,
      amenities: ["piscina", "quincho", "gimnasio"],
      typologies: ["1D1B", "2D2B"],
    });
    expect((output as Array<{ name: string; price: number }>)[2]).toMatchObject({
      name: "Edificio Mirador Ñuñoa – 2D2B 62 m²",
      price: 112_000_000,
    });
    expect(provenance).toEqual({
      source: "service_native",
      observedAt: "2026-03-01T12:00:00.000Z",
      freshness: "live",
      authoritative: false,
      fallbackUsed: false,
    });
    expect((await invoke("catalog.search", { search: "par-3" })).output).toMatchObject([
      { sku: "PAR-305", stock: 0, amenities: null },
    ]);
    expect((await invoke("catalog.search", {})).output).toHaveLength(5);
  });

  it("catalog.search and conversations.history honour limit at 0 and at the maximum, and refuse max+1", async () => {
    const { invoke, seeded } = await capabilityHarness();
    expect((await invoke("catalog.search", { limit: 0 })).output).toEqual([]);
    expect((await invoke("catalog.search", { limit: 100 })).output).toHaveLength(5);
    await expect(invoke("catalog.search", { limit: 101 })).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [{ field: "limit" }],
    });
    const conversation_id = seeded.conversationIds[0]!;
    expect((await invoke("conversations.history", { conversation_id, limit: 0 })).output).toEqual([]);
    expect((await invoke("conversations.history", { conversation_id, limit: 200 })).output).toHaveLength(4);
    await expect(invoke("conversations.history", { conversation_id, limit: 201 })).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [{ field: "limit" }],
    });
    await expect(invoke("catalog.search", { limit: 1.5 })).rejects.toMatchObject({ code: "invalid_payload" });
  });

  it("conversations.history lists messages most recent first and refuses an unknown conversation", async () => {
    const { invoke, seeded } = await capabilityHarness();
    const { output } = await invoke("conversations.history", { conversation_id: seeded.conversationIds[0]!, limit: 2 });
    expect(output).toEqual([
      {
        sender: "human",
        content: "Se vende aparte; te envío la cotización hoy.",
        created_at: "2026-03-01T10:23:00.000Z",
      },
      { sender: "contact", content: "¿Tienen estacionamiento incluido?", created_at: "2026-03-01T10:22:00.000Z" },
    ]);
    await expect(invoke("conversations.history", { conversation_id: "nope" })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("contacts.search finds by name, phone or email; contacts.get returns the full record", async () => {
    const { invoke, seeded } = await capabilityHarness();
    const maria = { name: "María José Ñuñez", phone: "+56911112222", email: "mj.nunez@example.cl" };
    expect((await invoke("contacts.search", { query: "maría" })).output).toEqual([maria]);
    expect((await invoke("contacts.search", { query: "9 1111 2222" })).output).toEqual([maria]);
    expect((await invoke("contacts.search", { query: "MJ.NUNEZ@" })).output).toEqual([maria]);
    expect((await invoke("contacts.search", { query: "zzz" })).output).toEqual([]);
    expect((await invoke("contacts.get", { contact_id: seeded.contactIds[0]! })).output).toEqual({
      ...maria,
      tags: ["comprador"],
      score: null,
      ltv: null,
    });
    await expect(invoke("contacts.get", { contact_id: "missing" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("inventory.check answers one match with its stock, and none as not found", async () => {
    const { invoke } = await capabilityHarness();
    expect((await invoke("inventory.check", { sku: "mir-101-2d" })).output).toEqual({
      found: true,
      sku: "MIR-101-2D",
      name: "Edificio Mirador Ñuñoa – 2D2B 62 m²",
      source: "service_native",
      stock: 2,
      available: true,
      availability: "in_stock",
      ambiguous: false,
      matches: [{ sku: "MIR-101-2D", name: "Edificio Mirador Ñuñoa – 2D2B 62 m²", source: "service_native" }],
    });
    expect((await invoke("inventory.check", { sku: "PAR-305" })).output).toMatchObject({
      found: true,
      stock: 0,
      available: false,
      availability: "out_of_stock",
    });
    expect((await invoke("inventory.check", { sku: "NONE" })).output).toEqual({
      found: false,
      sku: "NONE",
      ambiguous: false,
      matches: [],
    });
  });

  it("inventory.check reports ambiguity across two providers, and a failing provider as fallbackUsed", async () => {
    const erp: InventoryProvider = {
      name: "erp",
      authoritative: true,
      checkStock: async (_w, sku) => (sku === "X-1" || sku === "BOS-220" ? [{ sku, name: "ERP item", stock: 7 }] : []),
    };
    const shop: InventoryProvider = {
      name: "shopify",
      checkStock: async (_w, sku) => (sku === "X-1" ? [{ sku: "X-1", name: null, stock: 1 }] : []),
    };
    const down: InventoryProvider = {
      name: "legacy",
      checkStock: async () => {
        throw new Error("ECONNREFUSED");
      },
    };
    const { invoke } = await capabilityHarness({ inventoryProviders: [erp, shop] });
    const ambiguous = await invoke("inventory.check", { sku: "X-1" });
    expect(ambiguous.output).toEqual({
      found: true,
      sku: "X-1",
      name: null,
      source: null,
      stock: null,
      availability: "ambiguous",
      ambiguous: true,
      matches: [
        { sku: "X-1", name: "ERP item", source: "erp" },
        { sku: "X-1", name: null, source: "shopify" },
      ],
    });
    expect(ambiguous.provenance).toMatchObject({ source: "aggregated", authoritative: false });
    const acrossNative = await invoke("inventory.check", { sku: "BOS-220" });
    expect(acrossNative.output).toMatchObject({
      ambiguous: true,
      matches: [{ source: "service_native" }, { source: "erp" }],
    });

    const degraded = await capabilityHarness({ inventoryProviders: [erp, down] });
    const single = await degraded.invoke("inventory.check", { sku: "X-1" });
    expect(single.output).toMatchObject({ found: true, source: "erp", stock: 7, ambiguous: false });
    expect(single.provenance).toMatchObject({ source: "erp", authoritative: true, fallbackUsed: true });
  });
});
