import { randomBytes } from "node:crypto";
import { memoryStorage } from "@vitrina/adapter-memory";
import { verifyWebhook } from "@vitrina/client";
import { createManualClock } from "@vitrina/core/testing";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { startReceiver, startWebhookHarness, type ReceivedDelivery } from "../support/webhook-harness.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
/** The three Standard Webhooks headers of a delivery, as the receiving server got them. */
const standardHeaders = (d: ReceivedDelivery) => ({
  "webhook-id": d.headers["webhook-id"] as string,
  "webhook-timestamp": d.headers["webhook-timestamp"] as string,
  "webhook-signature": d.headers["webhook-signature"] as string,
});

/** `standardwebhooks`' own verifier (it reads the real time: the clock starts `startAgoSeconds` back). */
const libraryAccepts = (d: ReceivedDelivery, secret: string) => {
  try {
    return (new Webhook(secret).verify(d.body, standardHeaders(d)) as { id?: string }).id !== undefined;
  } catch {
    return false;
  }
};

async function standardHarness(startAgoSeconds = 0) {
  const receiver = await startReceiver();
  closers.push(receiver.close);
  const clock = createManualClock(Date.now() - startAgoSeconds * 1000);
  const h = await startWebhookHarness({ clock, storage: memoryStorage(), webhooks: { externalWorker: true } });
  const created = await h.api("POST", "/v1/webhooks", {
    url: receiver.url,
    events: ["quote.created"],
    signature_scheme: "standard-webhooks",
  });
  expect(created.status).toBe(201);
  const deliver = async () => {
    await h.quote();
    expect(await h.vitrina.outbox.dispatcher.runOnce("w")).toBe(1);
    return receiver.received.at(-1)!;
  };
  const clientAccepts = (d: ReceivedDelivery, secret: string | string[]) => {
    try {
      const headers = new Headers(standardHeaders(d));
      const now = clock.now().getTime();
      return verifyWebhook({ scheme: "standard-webhooks", payload: d.body, header: headers, secret, now }).id !== "";
    } catch {
      return false;
    }
  };
  return { h, clock, created: created.json, deliver, clientAccepts };
}

describe("Standard Webhooks signing scheme", () => {
  it("generates a whsec_ secret shown once, and signs real deliveries the standardwebhooks library verifies", async () => {
    const { h, created, deliver, clientAccepts } = await standardHarness();
    expect(created.signature_scheme).toBe("standard-webhooks");
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const secret = created.secret as string;
    // Never shown again, in a read or a list.
    expect(JSON.stringify((await h.api("GET", `/v1/webhooks/${created.id}`)).json)).not.toContain(secret);
    expect((await h.api("GET", `/v1/webhooks/${created.id}`)).json).not.toHaveProperty("secret");
    expect(JSON.stringify((await h.api("GET", "/v1/webhooks")).json)).not.toContain(secret.slice(6));

    const d = await deliver();
    const envelope = JSON.parse(d.body);
    expect(d.headers["webhook-id"]).toBe(envelope.id);
    expect(d.headers["webhook-timestamp"]).toMatch(/^\d+$/);
    expect(d.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(d.headers["vitrina-signature"]).toBeUndefined();
    expect(libraryAccepts(d, secret)).toBe(true);
    expect(clientAccepts(d, secret)).toBe(true);
    // Both refuse another secret and a tampered body, so the acceptances mean something.
    const other = newSecret();
    expect(libraryAccepts(d, other)).toBe(false);
    expect(clientAccepts(d, other)).toBe(false);
    expect(libraryAccepts({ ...d, body: d.body.replace("3980", "1") }, secret)).toBe(false);
    expect(clientAccepts({ ...d, body: d.body.replace("3980", "1") }, secret)).toBe(false);
  });

  it("keeps a secret given at creation, and refuses one that isn't whsec_ base64 of 24 to 64 bytes", async () => {
    const { h } = await standardHarness();
    const given = newSecret();
    const body = { url: "http://127.0.0.1:9/h", events: ["quote.created"], signature_scheme: "standard-webhooks" };
    const created = await h.api("POST", "/v1/webhooks", { ...body, secret: given });
    expect(created.status).toBe(201);
    expect(created.json).not.toHaveProperty("secret");
    const short = `whsec_${randomBytes(16).toString("base64")}`;
    for (const secret of ["0123456789abcdef0123456789abcdef", short, "whsec_not*base64*at*all*0123456789", "whsec_"]) {
      const answer = await h.api("POST", "/v1/webhooks", { ...body, secret });
      expect(answer.status, secret).toBe(422);
      expect(answer.json.error.reasons.map((r: { field: string }) => r.field)).toEqual(["secret"]);
    }
  });

  it("can't change its scheme after creation, and a vitrina subscription still needs its secret", async () => {
    const { h, created } = await standardHarness();
    const changed = await h.api("PATCH", `/v1/webhooks/${created.id}`, { signature_scheme: "vitrina" });
    expect(changed.status).toBe(422);
    expect(changed.json.error.reasons).toEqual([
      { field: "signature_scheme", reason: expect.stringContaining("can't change after creation") },
    ]);
    const missing = await h.api("POST", "/v1/webhooks", { url: "http://127.0.0.1:9/h", events: ["quote.created"] });
    expect(missing.status).toBe(422);
    expect(missing.json.error.reasons.map((r: { field: string }) => r.field)).toEqual(["secret"]);
    const unknown = await h.api("POST", "/v1/webhooks", {
      url: "http://127.0.0.1:9/h",
      events: ["quote.created"],
      secret: "0123456789abcdef0123456789abcdef",
      signature_scheme: "svix",
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error.reasons.map((r: { field: string }) => r.field)).toEqual(["signature_scheme"]);
  });

  it("during a rotation's grace period sends two space-separated v1 signatures that the library accepts for either secret", async () => {
    const { h, clock, created, deliver, clientAccepts } = await standardHarness(200);
    const old = created.secret as string;
    const next = newSecret();
    const rotated = await h.api("PATCH", `/v1/webhooks/${created.id}`, {
      secret: next,
      rotation: { grace_seconds: 120 },
    });
    expect(rotated.status).toBe(200);
    // A vitrina-style secret is refused for this subscription: its scheme judges the secret.
    const wrongKind = await h.api("PATCH", `/v1/webhooks/${created.id}`, {
      secret: "0123456789abcdef0123456789abcdef",
    });
    expect(wrongKind.json.error.reasons.map((r: { field: string }) => r.field)).toEqual(["secret"]);

    const during = await deliver();
    expect(during.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    for (const secret of [next, old]) {
      expect(libraryAccepts(during, secret)).toBe(true);
      expect(clientAccepts(during, secret)).toBe(true);
    }
    expect(libraryAccepts(during, newSecret())).toBe(false);

    clock.advance(120_000);
    const after = await deliver();
    expect(after.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(libraryAccepts(after, next)).toBe(true);
    expect(clientAccepts(after, next)).toBe(true);
    expect(libraryAccepts(after, old)).toBe(false);
    expect(clientAccepts(after, old)).toBe(false);
  });
});
