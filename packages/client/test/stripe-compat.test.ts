import { describe, expect, it } from "vitest";
import Stripe from "stripe";
import { fetchSender, postWebhook, signatureHeader } from "@vitrina/core/webhooks";

// The client README says Stripe's verifiers accept Vitrina deliveries. This takes a delivery as
// Vitrina's outbox sends it (core's signer and poster, captured at the receiving fetch) and hands
// its Vitrina-Signature value to stripe-node's verifier as the Stripe-Signature header.
async function captureDelivery(secret: string) {
  const body = JSON.stringify({
    id: "evt_01",
    type: "order.confirmed",
    created: new Date().toISOString(),
    data: { order_id: "ord_1", note: "José 🏠" },
  });
  let received: { body: string; signature: string } | undefined;
  const capture = (async (_url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    received = { body: String(init.body), signature: headers.get("Vitrina-Signature")! };
    return new Response("ok");
  }) as typeof fetch;
  const signature = await signatureHeader(secret, Math.floor(Date.now() / 1000), body);
  const result = await postWebhook({
    send: fetchSender(capture),
    url: "https://receiver.example/hooks",
    body,
    signature,
    eventId: "evt_01",
    headerPrefix: "Vitrina",
    timeoutMs: 5_000,
  });
  expect(result.ok).toBe(true);
  return received!;
}

describe("Stripe's webhook verifier accepts Vitrina deliveries", () => {
  const stripe = new Stripe("sk_test_unused");
  const secret = "whsec_vitrina_0123456789abcdefXYZ";

  it("constructEvent verifies the signature and returns Vitrina's envelope", async () => {
    const delivery = await captureDelivery(secret);
    expect(delivery.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = stripe.webhooks.constructEvent(delivery.body, delivery.signature, secret) as unknown;
    expect(event).toEqual(JSON.parse(delivery.body));
  });

  it("constructEventAsync (Web Crypto) agrees", async () => {
    const delivery = await captureDelivery(secret);
    await expect(stripe.webhooks.constructEventAsync(delivery.body, delivery.signature, secret)).resolves.toMatchObject(
      { id: "evt_01" },
    );
  });

  it("and refuses a tampered body or another secret, so the acceptance means something", async () => {
    const delivery = await captureDelivery(secret);
    expect(() => stripe.webhooks.constructEvent(`${delivery.body} `, delivery.signature, secret)).toThrow(/signature/i);
    expect(() => stripe.webhooks.constructEvent(delivery.body, delivery.signature, `${secret}-other`)).toThrow(
      /signature/i,
    );
  });
});
