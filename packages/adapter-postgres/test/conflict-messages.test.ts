import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { fixtures } from "@vitrina/core/testing";
import { webhookFixtures } from "../../core/src/testing/webhook-fixtures.js";
import { backends, openTestStorage } from "./support.js";

// A unique violation's message is what a 409 body and an embedder's catch see. On PostgreSQL it used
// to be the driver's ("a unique rule was violated: duplicate key value violates unique constraint
// \"payments_reference_key\""): a schema detail, and different from the memory adapter's words for
// the same rule. Both now say what conflicted in domain words; PostgreSQL's error stays the cause.
const f = fixtures();
const w = webhookFixtures();

describe.each(["memory", ...backends] as const)("conflict messages on %s", (backend) => {
  let storage: Storage;
  let workspaceId = "";
  let contactId = "";
  beforeAll(async () => {
    storage = backend === "memory" ? memoryStorage() : (await openTestStorage(backend)).storage;
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    workspaceId = workspace.id;
    contactId = (await storage.contacts.insertOrGetByPhone(f.contact(workspaceId))).contact.id;
  });
  afterAll(async () => {
    await storage?.close();
  });

  const refusal = async (write: () => Promise<unknown>) => {
    const error = (await write().then(
      () => null,
      (e: unknown) => e,
    )) as { code?: string; message?: string; cause?: { constraint?: string } } | null;
    expect(error?.code).toBe("conflict");
    expect(error?.message).not.toMatch(/_key|_pkey|constraint|unique rule/);
    return error!;
  };

  it("says which rule in domain words, the same on every adapter", async () => {
    const quote = w.quote(workspaceId, contactId);
    await storage.quotes.insert(quote);
    const order = w.order(workspaceId, contactId, { quoteId: quote.id });
    await storage.orders.insert(order);
    const secondOrder = await refusal(() =>
      storage.orders.insert(w.order(workspaceId, contactId, { quoteId: quote.id })),
    );
    expect(secondOrder.message).toBe("this quote already has an order");

    const payment = w.payment(workspaceId, order.id, contactId);
    await storage.payments.insert(payment);
    const samePayment = await refusal(() =>
      storage.payments.insert(
        w.payment(workspaceId, order.id, contactId, { providerReference: payment.providerReference }),
      ),
    );
    expect(samePayment.message).toBe("a payment with this provider reference was already recorded");

    const sub = w.subscription(workspaceId);
    await storage.webhookSubscriptions.insert(sub);
    const delivery = w.delivery(workspaceId, sub.id);
    await storage.webhookDeliveries.insert(delivery);
    const twice = await refusal(() =>
      storage.webhookDeliveries.insert({ ...w.delivery(workspaceId, sub.id), eventId: delivery.eventId }),
    );
    expect(twice.message).toBe("this event already has a delivery to this subscription");

    const other = (await storage.contacts.insertOrGetByPhone(f.contact(workspaceId))).contact;
    const first = (await storage.contacts.get(workspaceId, contactId))!;
    const phoneTaken = await refusal(() =>
      storage.contacts.patch(workspaceId, other.id, { phoneE164: first.phoneE164 }, f.at()),
    );
    expect(phoneTaken.message).toBe("another contact already has this phone");

    const channel = {
      workspaceId,
      phoneNumberId: "1065",
      sealedAccessToken: null,
      sealedAppSecret: "v1.sealed.app-secret",
      verifyTokenHash: f.id(),
      graphBaseUrl: "https://graph.facebook.com",
      apiVersion: "v21.0",
      optOutKeywords: null,
      optInKeywords: null,
      createdAt: f.at(),
      updatedAt: f.at(),
    };
    await storage.whatsappChannels.put(channel);
    const otherWorkspace = f.workspace();
    await storage.workspaces.insert(otherWorkspace);
    const numberTaken = await refusal(() =>
      storage.whatsappChannels.put({ ...channel, workspaceId: otherWorkspace.id }),
    );
    expect(numberTaken.message).toBe("another workspace's WhatsApp channel already has this phone number id");

    const sameId = await refusal(() => storage.quotes.insert(quote));
    expect(sameId.message).toBe("a record with the same key already exists");

    // PostgreSQL's own error, naming the constraint, stays the cause for the error log.
    if (backend !== "memory") expect(samePayment.cause?.constraint).toBe("payments_reference_key");
  });
});
