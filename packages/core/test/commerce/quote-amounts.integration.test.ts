import { memoryStorage } from "@vitrina/adapter-memory";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { testVitrina } from "../../../adapter-postgres/test/support.js";

async function setup() {
  const vitrina = testVitrina(memoryStorage());
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56933334444" });
  const create = (items: Array<{ sku: string; quantity: number; unitPrice: number }>) =>
    vitrina.quotes.create({ workspaceId: workspace.id, contactId: contact.id, items });
  return { vitrina, workspace, create };
}

// CLP (the default currency) has no decimals, so a minor unit is a peso and amounts are integers.
describe("quote amounts beyond what a number holds exactly", () => {
  it("refuses a line whose total is not exactly quantity × unit price, naming the line", async () => {
    const { create } = await setup();
    // 3 × 3002399751580331 = 9007199254740993, which a double cannot hold: it was stored as …992.
    await expect(create([{ sku: "A", quantity: 3, unitPrice: 3002399751580331 }])).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [expect.objectContaining({ field: "items.0" })],
    });
  });

  it("refuses an overflowing line with 422, not a RangeError", async () => {
    const { create } = await setup();
    // The unit price itself is past exact integers, so that is the field named.
    await expect(create([{ sku: "A", quantity: 2, unitPrice: 1e308 }])).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [expect.objectContaining({ field: "items.0.unitPrice" })],
    });
  });

  it("refuses lines whose sum (or the total with VAT) is beyond exact integers, naming items", async () => {
    const { create } = await setup();
    await expect(
      create([
        { sku: "A", quantity: 1, unitPrice: 5e15 },
        { sku: "B", quantity: 1, unitPrice: 5e15 },
      ]),
    ).rejects.toMatchObject({ code: "invalid_payload", reasons: [expect.objectContaining({ field: "items" })] });
    // The subtotal fits; with 19 % VAT the total does not.
    await expect(create([{ sku: "A", quantity: 1, unitPrice: 8e15 }])).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [expect.objectContaining({ field: "items" })],
    });
  });

  it("either refuses a quote with 422 or stores exact sums (property)", async () => {
    const { create } = await setup();
    let runs = 0;
    let refused = 0;
    const amount = fc.oneof(
      fc.integer({ min: 0, max: 10_000 }),
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      fc.double({ min: 0, max: 1e308, noNaN: true }).map(Math.floor),
    );
    const line = fc.record({
      quantity: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })),
      unitPrice: amount,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 4 }), async (lines) => {
        runs++;
        const items = lines.map((l, i) => ({ sku: `S${i}`, ...l }));
        let quote;
        try {
          quote = await create(items);
        } catch (error) {
          expect(error).toMatchObject({ code: "invalid_payload" });
          refused++;
          return;
        }
        const exact = items.map((i) => BigInt(i.quantity) * BigInt(i.unitPrice));
        expect(quote.items.map((i) => BigInt(i.lineTotal))).toEqual(exact);
        const subtotal = exact.reduce((a, b) => a + b, 0n);
        expect(BigInt(quote.subtotal)).toBe(subtotal);
        expect(BigInt(quote.total)).toBe(subtotal + BigInt(quote.vat));
      }),
      { numRuns: 300 },
    );
    // Both sides were exercised: exact quotes stored, and quotes refused.
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(runs);
  });
});
