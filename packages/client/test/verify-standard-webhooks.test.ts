import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { entries, orderConfirmed } from "./entries.js";

// Keys as the Standard Webhooks libraries make them: whsec_ + base64 of random bytes.
const secret = `whsec_${btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => (i * 37 + 11) % 256)))}`;
const previous = `whsec_${btoa(String.fromCharCode(...Array.from({ length: 24 }, (_, i) => (i * 53 + 7) % 256)))}`;
const now = 1_750_000_000_000;
const payload = JSON.stringify(orderConfirmed);
/** Signed by the reference library, not by our code. */
const signature = (key: string) => new Webhook(key).sign("evt_01", new Date(now), payload);
const headersWith = (value: string, over: Record<string, string> = {}) =>
  new Headers({ "webhook-id": "evt_01", "webhook-timestamp": String(now / 1000), "webhook-signature": value, ...over });

describe.each(entries)("verifyWebhook with scheme standard-webhooks, %s", (_, client) => {
  const { verifyWebhook, WebhookVerificationError } = client;
  const verify = (overrides: Partial<Parameters<typeof verifyWebhook>[0]>) =>
    verifyWebhook({
      scheme: "standard-webhooks",
      payload,
      header: headersWith(signature(secret)),
      secret,
      now,
      ...overrides,
    });
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(WebhookVerificationError);
      return (error as InstanceType<typeof WebhookVerificationError>).code;
    }
    return "accepted";
  };

  it("accepts what the standardwebhooks library signed, as a string or bytes", () => {
    expect(verify({})).toEqual(orderConfirmed);
    expect(verify({ payload: new TextEncoder().encode(payload) }).id).toBe("evt_01");
  });

  it("accepts either secret during a rotation (space-separated v1 signatures), and any v1 against several secrets", () => {
    const both = headersWith(`${signature(secret)} ${signature(previous)}`);
    expect(verify({ header: both }).id).toBe("evt_01");
    expect(verify({ header: both, secret: previous }).id).toBe("evt_01");
    expect(verify({ header: headersWith(signature(previous)), secret: [secret, previous] }).id).toBe("evt_01");
    expect(codeOf(() => verify({ header: both, secret: `whsec_${btoa("x".repeat(32))}` }))).toBe(
      "no_matching_signature",
    );
  });

  it("refuses a tampered body, another id or timestamp, and a stale delivery", () => {
    expect(codeOf(() => verify({ payload: payload.replace("125000", "1") }))).toBe("no_matching_signature");
    expect(codeOf(() => verify({ header: headersWith(signature(secret), { "webhook-id": "evt_02" }) }))).toBe(
      "no_matching_signature",
    );
    const later = String(now / 1000 + 1);
    expect(codeOf(() => verify({ header: headersWith(signature(secret), { "webhook-timestamp": later }) }))).toBe(
      "no_matching_signature",
    );
    expect(codeOf(() => verify({ now: now + 301_000 }))).toBe("timestamp_outside_tolerance");
  });

  it("reports missing and malformed headers, ignoring signature versions other than v1", () => {
    expect(codeOf(() => verify({ header: new Headers() }))).toBe("missing_header");
    expect(codeOf(() => verify({ header: signature(secret) }))).toBe("missing_header");
    expect(codeOf(() => verify({ header: headersWith("v1a,abc") }))).toBe("malformed_header");
    expect(codeOf(() => verify({ header: headersWith("nocomma") }))).toBe("malformed_header");
    expect(codeOf(() => verify({ header: headersWith("v1,AAAA") }))).toBe("malformed_header");
    expect(codeOf(() => verify({ header: headersWith(signature(secret), { "webhook-timestamp": "12x" }) }))).toBe(
      "malformed_header",
    );
    expect(verify({ header: headersWith(`v2,whatever ${signature(secret)}`) }).id).toBe("evt_01");
  });

  it("never verifies with an empty or undecodable secret", () => {
    for (const bad of ["", "whsec_", [""], "whsec_***"]) {
      expect(codeOf(() => verify({ secret: bad }))).toBe("no_matching_signature");
    }
  });

  it("only ever accepts or refuses with a code, whatever the headers hold (U+0000, lone surrogates)", () => {
    const text = fc.string({ unit: fc.constantFrom("a", ",", " ", "=", "v", "1", "\u0000", "\ud800", "\udfff", "+") });
    fc.assert(
      fc.property(text, text, text, (id, timestamp, value) => {
        const headers = {
          get: (name: string) =>
            ({ "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": value })[name] ?? null,
        };
        expect([
          "missing_header",
          "malformed_header",
          "timestamp_outside_tolerance",
          "no_matching_signature",
        ]).toContain(codeOf(() => verify({ header: headers })));
      }),
    );
  });
});
