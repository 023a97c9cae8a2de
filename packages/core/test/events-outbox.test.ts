import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, EVENT_TYPES, silentLogger, type Storage } from "@vitrina/core";
import { vatOf } from "@vitrina/core/capabilities";
import { emitEvent, eventJsonSchemas } from "@vitrina/core/webhooks";
import { logMessagingTransport } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";

async function setup(storage: Storage = memoryStorage()) {
  const clock = createManualClock("2026-03-01T12:00:00.000Z");
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 1).toString("base64"),
    clock,
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56933334444" });
  await vitrina.storage.webhookSubscriptions.insert({
    id: "whs_all",
    workspaceId: workspace.id,
    url: "https://erp.example.cl/h",
    events: [...EVENT_TYPES],
    sealedSecret: "x",
    signatureScheme: "vitrina",
    previousSealedSecret: null,
    previousSecretExpiresAt: null,
    enabled: true,
    disabledReason: null,
    createdAt: clock.now().toISOString(),
    updatedAt: clock.now().toISOString(),
  });
  const events = () => vitrina.storage.events.listByWorkspace(workspace.id);
  return { vitrina, clock, workspace, contact, events };
}

describe("events and the transactional outbox", () => {
  it("walks conversation → quote → order → payment, each emitting its event with its delivery", async () => {
    const { vitrina, workspace, contact, events } = await setup();
    const ws = workspace.id;
    const conversation = await vitrina.conversations.start({
      workspaceId: ws,
      contactId: contact.id,
      channel: "web",
      startedBy: "contact",
    });
    await vitrina.conversations.escalate({
      workspaceId: ws,
      conversationId: conversation.id,
      reason: "asks for a discount",
      escalatedBy: "agent-1",
    });
    await expect(
      vitrina.conversations.escalate({
        workspaceId: ws,
        conversationId: conversation.id,
        reason: "again",
        escalatedBy: "agent-1",
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    const quote = await vitrina.quotes.create({
      workspaceId: ws,
      contactId: contact.id,
      conversationId: conversation.id,
      items: [
        { sku: "A", quantity: 3, unitPrice: 9990 },
        { sku: "B", quantity: 1, unitPrice: 1 },
      ],
    });
    expect(quote).toMatchObject({ subtotal: 29971, vatRate: 0.19, vat: 5694, total: 35665, currency: "CLP" });
    await expect(
      vitrina.orders.confirm({ workspaceId: ws, quoteId: quote.id, decidedBy: "agent-1", approvedBy: "u1" }),
    ).rejects.toMatchObject({ code: "conflict" });
    await vitrina.quotes.accept({ workspaceId: ws, quoteId: quote.id });
    const order = await vitrina.orders.confirm({
      workspaceId: ws,
      quoteId: quote.id,
      decidedBy: "agent-1",
      approvedBy: "u1",
    });
    await vitrina.orders.recordPayment({
      workspaceId: ws,
      orderId: order.id,
      amount: 35665,
      method: "transfer",
      providerReference: "tx-1",
    });

    const emitted = await events();
    expect(emitted.map((e) => e.type)).toEqual([
      "conversation.started",
      "conversation.escalated",
      "quote.created",
      "quote.accepted",
      "order.confirmed",
      "payment.succeeded",
    ]);
    expect(emitted.find((e) => e.type === "order.confirmed")!.data).toEqual({
      order_id: order.id,
      contact_id: contact.id,
      total: 35665,
      currency: "CLP",
      decided_by: "agent-1",
      approved_by: "u1",
    });
    const deliveries = await vitrina.storage.webhookDeliveries.listBySubscription("whs_all", { limit: 50 });
    expect(deliveries.map((d) => d.eventId).sort()).toEqual(emitted.map((e) => e.id).sort());
    expect(deliveries[0]!.retryUntil).toBe("2026-03-02T12:00:00.000Z");
  });

  it("leaves neither state nor event nor delivery when the transaction fails", async () => {
    const base = memoryStorage();
    const { vitrina, workspace, contact, events } = await setup(base);
    // The transaction throws after the state change and its event were written.
    const ws = workspace.id;
    await expect(
      vitrina.storage.transaction(async (tx) => {
        await tx.quotes.insert({
          id: "q1",
          workspaceId: ws,
          contactId: contact.id,
          conversationId: null,
          currency: "CLP",
          items: [],
          subtotal: 0,
          vatRate: 0.19,
          vat: 0,
          total: 0,
          status: "issued",
          createdAt: "2026-03-01T12:00:00.000Z",
          acceptedAt: null,
        });
        await emitEvent(
          tx,
          { clock: createManualClock(), ids: () => crypto.randomUUID() },
          {
            workspaceId: ws,
            type: "quote.accepted",
            data: {
              quote_id: "q1",
              contact_id: contact.id,
              total: 0,
              currency: "CLP",
              accepted_at: "2026-03-01T12:00:00.000Z",
            },
          },
        );
        throw new Error("ERP sync failed");
      }),
    ).rejects.toThrow("ERP sync failed");
    expect(await vitrina.storage.quotes.get(ws, "q1")).toBeNull();
    expect(await events()).toEqual([]);
    expect(await vitrina.storage.webhookDeliveries.listBySubscription("whs_all", { limit: 10 })).toEqual([]);
    // A domain operation refused halfway (unknown contact) leaves nothing either.
    await expect(
      vitrina.quotes.create({ workspaceId: ws, contactId: "nobody", items: [{ sku: "A", quantity: 1, unitPrice: 1 }] }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await events()).toEqual([]);
  });

  it("refuses event data that breaks the published schema", async () => {
    const { vitrina, workspace } = await setup();
    await expect(
      vitrina.storage.transaction((tx) =>
        emitEvent(
          tx,
          { clock: createManualClock(), ids: () => "x" },
          { workspaceId: workspace.id, type: "order.confirmed", data: { order_id: "o" } as never },
        ),
      ),
    ).rejects.toMatchObject({ code: "internal" });
  });

  it("opens a WhatsApp conversation with the first message of a consented lead", async () => {
    const { vitrina, workspace } = await setup();
    const conversation = await vitrina.storage.transaction(async (tx) => {
      const { openConversation } = await import("../src/conversations/open-conversation.js");
      return openConversation(
        tx,
        { clock: createManualClock(), ids: () => crypto.randomUUID() },
        {
          workspaceId: workspace.id,
          contactId: "c1",
          channel: "whatsapp",
          startedBy: "lead_intake",
          firstMessage: { sender: "agent", content: "hola" },
        },
      );
    });
    expect(await vitrina.storage.messages.listByConversation(conversation.conversation.id)).toEqual([
      conversation.message,
    ]);
  });

  it("publishes a JSON Schema for each event type's envelope", () => {
    const schemas = eventJsonSchemas();
    expect(Object.keys(schemas)).toEqual([...EVENT_TYPES]);
    const order = schemas["order.confirmed"] as any;
    expect(order.properties.data.required).toEqual([
      "order_id",
      "contact_id",
      "total",
      "currency",
      "decided_by",
      "approved_by",
    ]);
    expect(order.properties.data.additionalProperties).toBe(false);
  });

  it("rounds VAT half up in minor units", () => {
    expect(vatOf(3980, 0.19)).toBe(756); // 756.2
    expect(vatOf(50, 0.19)).toBe(10); // 9.5 → 10
    expect(vatOf(1_000_000_000_000, 0.19)).toBe(190_000_000_000);
  });
});
