import { memoryStorage } from "@vitrina/adapter-memory";
import { verifyWebhook } from "@vitrina/client";
import { createManualClock } from "@vitrina/core/testing";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { RECEIVER_SECRET, startReceiver, startWebhookHarness } from "../support/webhook-harness.js";

const NEW_SECRET = "whsec_rotated_9876543210zyxwvuTSRQ";
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/**
 * A receiver over a real socket, a Vitrina whose clock starts `startAgoSeconds` in the past (so a
 * delivery stays inside the 5-minute tolerance of Stripe's verifier, which reads the real time,
 * after the clock moves past a short grace period), and a subscription signed with RECEIVER_SECRET.
 */
async function rotationHarness(startAgoSeconds = 0, webhooks = {}) {
  const receiver = await startReceiver();
  closers.push(receiver.close);
  const clock = createManualClock(Date.now() - startAgoSeconds * 1000);
  const h = await startWebhookHarness({
    clock,
    storage: memoryStorage(),
    webhooks: { externalWorker: true, ...webhooks },
  });
  const sub = await h.subscribe(receiver.url);
  /** One quote.created delivered now; its body and `Vitrina-Signature`. */
  const deliver = async () => {
    await h.quote();
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(1);
    const got = receiver.received.at(-1)!;
    return { body: got.body, header: got.headers["vitrina-signature"] as string };
  };
  const verifies = (d: { body: string; header: string }, secret: string) => {
    try {
      return verifyWebhook({ payload: d.body, header: d.header, secret, now: clock.now().getTime() }).id !== "";
    } catch {
      return false;
    }
  };
  return { h, clock, sub, deliver, verifies };
}

const stripe = new Stripe("sk_test_unused");
/** stripe-node reads `Stripe-Signature`; it is handed our header's value, which has the same format. */
const stripeAccepts = (d: { body: string; header: string }, secret: string) => {
  try {
    return (stripe.webhooks.constructEvent(d.body, d.header, secret) as { id?: string }).id !== undefined;
  } catch {
    return false;
  }
};

describe("webhook secret rotation with a grace period", () => {
  it("signs with both secrets during the grace period (Stripe's verifier and ours accept either), then with the new one only", async () => {
    const { h, clock, sub, deliver, verifies } = await rotationHarness(200);
    const rotated = await h.api("PATCH", `/v1/webhooks/${sub}`, {
      secret: NEW_SECRET,
      rotation: { grace_seconds: 120 },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.json.previous_secret_expires_at).toBe(new Date(clock.now().getTime() + 120_000).toISOString());
    expect(JSON.stringify(rotated.json)).not.toContain(NEW_SECRET);

    const during = await deliver();
    expect(during.header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const secret of [NEW_SECRET, RECEIVER_SECRET]) {
      expect(verifies(during, secret)).toBe(true);
      expect(stripeAccepts(during, secret)).toBe(true);
    }
    // Neither accepts a third secret or a tampered body, so the acceptances above mean something.
    expect(verifies(during, `${NEW_SECRET}x`)).toBe(false);
    expect(stripeAccepts(during, `${NEW_SECRET}x`)).toBe(false);
    expect(stripeAccepts({ ...during, body: `${during.body} ` }, NEW_SECRET)).toBe(false);

    clock.advance(120_000);
    const after = await deliver();
    expect(after.header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifies(after, NEW_SECRET)).toBe(true);
    expect(stripeAccepts(after, NEW_SECRET)).toBe(true);
    expect(verifies(after, RECEIVER_SECRET)).toBe(false);
    expect(stripeAccepts(after, RECEIVER_SECRET)).toBe(false);
  });

  it("rolls for 24 hours by default, or for webhooks.secretRotationGraceSeconds", async () => {
    const byDefault = await rotationHarness();
    const rolled = await byDefault.h.api("PATCH", `/v1/webhooks/${byDefault.sub}`, { secret: NEW_SECRET });
    expect(rolled.json.previous_secret_expires_at).toBe(
      new Date(byDefault.clock.now().getTime() + 86_400_000).toISOString(),
    );
    byDefault.clock.advance(86_399_000);
    expect((await byDefault.deliver()).header.split(",v1=")).toHaveLength(3);
    byDefault.clock.advance(1_000);
    expect((await byDefault.deliver()).header.split(",v1=")).toHaveLength(2);

    const configured = await rotationHarness(0, { secretRotationGraceSeconds: 60 });
    const short = await configured.h.api("PATCH", `/v1/webhooks/${configured.sub}`, { secret: NEW_SECRET });
    expect(short.json.previous_secret_expires_at).toBe(
      new Date(configured.clock.now().getTime() + 60_000).toISOString(),
    );
  });

  it("switches at once with grace_seconds 0: the old secret stops signing the next delivery", async () => {
    const { h, sub, deliver, verifies } = await rotationHarness();
    const switched = await h.api("PATCH", `/v1/webhooks/${sub}`, {
      secret: NEW_SECRET,
      rotation: { grace_seconds: 0 },
    });
    expect(switched.json.previous_secret_expires_at).toBeNull();
    const next = await deliver();
    expect(verifies(next, NEW_SECRET)).toBe(true);
    expect(verifies(next, RECEIVER_SECRET)).toBe(false);
  });

  it("refuses a rotation without a secret, and a grace period out of range, naming the field", async () => {
    const { h, sub } = await rotationHarness();
    const cases: Array<[unknown, string]> = [
      [{ rotation: { grace_seconds: 60 } }, "rotation"],
      [{ secret: NEW_SECRET, rotation: { grace_seconds: -1 } }, "rotation.grace_seconds"],
      [{ secret: NEW_SECRET, rotation: { grace_seconds: 604_801 } }, "rotation.grace_seconds"],
      [{ secret: NEW_SECRET, rotation: { grace_seconds: 1.5 } }, "rotation.grace_seconds"],
      [{ secret: NEW_SECRET, rotation: { grace_seconds: "60" } }, "rotation.grace_seconds"],
      [{ secret: NEW_SECRET, rotation: { grace: 60 } }, "rotation.grace"],
    ];
    for (const [body, field] of cases) {
      const answer = await h.api("PATCH", `/v1/webhooks/${sub}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.json.error.code).toBe("invalid_payload");
      expect(answer.json.error.reasons.map((r: { field: string }) => r.field)).toContain(field);
    }
    expect((await h.api("GET", `/v1/webhooks/${sub}`)).json.previous_secret_expires_at).toBeNull();
  });

  it("refuses a grace period option out of range at start-up", async () => {
    for (const value of [-1, 604_801, 0.5, Number.NaN]) {
      await expect(startWebhookHarness({ webhooks: { secretRotationGraceSeconds: value } })).rejects.toMatchObject({
        code: "invalid_argument",
      });
    }
  });
});
