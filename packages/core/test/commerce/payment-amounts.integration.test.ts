import { memoryStorage } from "@vitrina/adapter-memory";
import { describe, expect, it } from "vitest";
import { testVitrina } from "../../../adapter-postgres/test/support.js";

async function confirmedOrder(currency: string) {
  const vitrina = testVitrina(memoryStorage());
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner", currency });
  const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56933334444" });
  const quote = await vitrina.quotes.create({
    workspaceId: workspace.id,
    contactId: contact.id,
    items: [{ sku: "A", quantity: 1, unitPrice: 10 }],
  });
  await vitrina.quotes.accept({ workspaceId: workspace.id, quoteId: quote.id });
  const order = await vitrina.orders.confirm({
    workspaceId: workspace.id,
    quoteId: quote.id,
    decidedBy: "agent-sales",
    approvedBy: "user-1",
  });
  const pay = (amount: number, providerReference: string) =>
    vitrina.orders.recordPayment({
      workspaceId: workspace.id,
      orderId: order.id,
      amount,
      method: "card",
      providerReference,
    });
  return { vitrina, workspace, order, pay };
}

describe("payment amounts beyond what a number holds exactly", () => {
  it("refuses a USD amount whose cents overflow with 422 naming amount, not a 500 from the event", async () => {
    const { vitrina, workspace, order, pay } = await confirmedOrder("USD");
    // 1e307 dollars is 1e309 cents: Infinity, which payment.succeeded's schema refused as `internal`.
    for (const [amount, ref] of [
      [1e307, "r1"],
      [Number.MAX_VALUE, "r2"],
      [1e14, "r3"], // 1e16 cents: past 2^53, no longer exact
    ] as const) {
      await expect(pay(amount, ref), String(amount)).rejects.toMatchObject({
        code: "invalid_payload",
        reasons: [expect.objectContaining({ field: "amount" })],
      });
    }
    expect(await vitrina.storage.payments.listByOrder(order.id)).toEqual([]);
    expect(await vitrina.storage.events.listByWorkspace(workspace.id, { type: "payment.succeeded" })).toEqual([]);
    await expect(pay(1234.56, "r4")).resolves.toMatchObject({ amount: 1234.56, currency: "USD" });
  });
});
