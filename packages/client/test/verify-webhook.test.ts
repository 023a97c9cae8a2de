import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { entries, orderConfirmed } from "./entries.js";

const secret = "whsec_current";
const now = 1_750_000_000_000;
const t = now / 1000;
const payload = JSON.stringify(orderConfirmed);

describe.each(entries)("verifyWebhook, %s", (_, client) => {
  const { signWebhook, verifyWebhook, WebhookVerificationError } = client;
  const header = signWebhook({ payload, secret, timestamp: t });
  const verify = (overrides: Partial<Parameters<typeof verifyWebhook>[0]>) =>
    verifyWebhook({ payload, header, secret, now, ...overrides });
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(WebhookVerificationError);
      return (error as InstanceType<typeof WebhookVerificationError>).code;
    }
    return "accepted";
  };

  it("accepts a valid delivery and returns the typed event", () => {
    const event = verify({});
    expect(event).toEqual(orderConfirmed);
    if (event.type === "order.confirmed") expect(event.data.currency).toBe("CLP");
    expect(verify({ payload: new TextEncoder().encode(payload) })).toEqual(orderConfirmed);
  });

  it("reads the header from Headers, honouring headerPrefix", () => {
    expect(verify({ header: new Headers({ "Vitrina-Signature": header }) }).id).toBe("evt_01");
    expect(verify({ header: new Headers({ "Acme-Signature": header }), headerPrefix: "Acme" }).id).toBe("evt_01");
    expect(codeOf(() => verify({ header: new Headers({ "Vitrina-Signature": header }), headerPrefix: "Acme" }))).toBe(
      "missing_header",
    );
  });

  it("rejects a tampered body and a wrong secret", () => {
    expect(codeOf(() => verify({ payload: payload.replace("125000", "1") }))).toBe("no_matching_signature");
    expect(codeOf(() => verify({ secret: "whsec_other" }))).toBe("no_matching_signature");
  });

  it("accepts any v1 against any secret while rotating", () => {
    const old = signWebhook({ payload, secret: "whsec_old", timestamp: t });
    const both = `${header},v1=${old.split("v1=")[1]}`;
    expect(verify({ header: both, secret: "whsec_old" }).id).toBe("evt_01");
    expect(verify({ header: both, secret: ["whsec_nope", secret] }).id).toBe("evt_01");
    expect(verify({ header: old, secret: [secret, "whsec_old"] }).id).toBe("evt_01");
    expect(codeOf(() => verify({ header: both, secret: ["a", "b"] }))).toBe("no_matching_signature");
    expect(codeOf(() => verify({ secret: [] }))).toBe("no_matching_signature");
  });

  it("never verifies with an empty or missing secret (an unset PREVIOUS while not rotating)", () => {
    // HMAC keyed with "" is a signature anyone can compute: a forger's delivery.
    const forged = signWebhook({ payload, secret: "", timestamp: t });
    const unsetPrevious = undefined as unknown as string; // process.env.WEBHOOK_SECRET_PREVIOUS!
    for (const secrets of ["", [secret, ""], "whsec_current,".split(","), [secret, unsetPrevious], [unsetPrevious]]) {
      expect(
        codeOf(() => verify({ header: forged, secret: secrets })),
        JSON.stringify(secrets),
      ).toBe("no_matching_signature");
    }
    expect(codeOf(() => verify({ secret: unsetPrevious }))).toBe("no_matching_signature");
    // The usable secret next to a missing one still verifies.
    expect(verify({ secret: [unsetPrevious, "", secret] }).id).toBe("evt_01");
  });

  it("rejects stale and future timestamps, inclusive tolerance, configurable", () => {
    expect(verify({ now: now + 300_000 }).id).toBe("evt_01");
    expect(codeOf(() => verify({ now: now + 301_000 }))).toBe("timestamp_outside_tolerance");
    expect(codeOf(() => verify({ now: now - 301_000 }))).toBe("timestamp_outside_tolerance");
    expect(verify({ now: now + 3_600_000, toleranceSeconds: 3600 }).id).toBe("evt_01");
    expect(verify({ now: 0, toleranceSeconds: Infinity }).id).toBe("evt_01");
  });

  it("never turns the replay window off by accident (NaN tolerance or clock)", () => {
    const yearOld = now + 365 * 86_400_000;
    // Number(process.env.WEBHOOK_TOLERANCE_SECONDS) when the variable is unset.
    for (const toleranceSeconds of [Number(undefined), -1]) {
      expect(() => verify({ now: yearOld, toleranceSeconds }), String(toleranceSeconds)).toThrow(
        /toleranceSeconds must be a number/,
      );
    }
    expect(codeOf(() => verify({ now: Number.NaN }))).toBe("timestamp_outside_tolerance");
    expect(verify({ toleranceSeconds: 0 }).id).toBe("evt_01");
  });

  it("classifies missing and malformed headers", () => {
    const v1 = header.split(",")[1];
    for (const h of [undefined, null, ""]) expect(codeOf(() => verify({ header: h }))).toBe("missing_header");
    for (const h of [
      `t=${t}`,
      v1 ?? "",
      `t=abc,${v1}`,
      `t=${t},v1=zz`,
      `t=${t},v1=${"a".repeat(63)}`,
      `t=${t}, ${v1}`,
      `t=${t},t=${t},${v1}`,
      `${v1},=x,t=${t}`,
      "garbage",
    ]) {
      expect(
        codeOf(() => verify({ header: h })),
        h,
      ).toBe("malformed_header");
    }
    // Unknown schemes are ignored, and v1 hex is case-insensitive.
    expect(verify({ header: `t=${t},v0=legacy,${v1}` }).id).toBe("evt_01");
    expect(verify({ header: header.toUpperCase().replace("T=", "t=").replace("V1=", "v1=") }).id).toBe("evt_01");
  });

  it("rejects a signed body that is not a JSON event envelope", () => {
    for (const body of [
      "not json",
      "[]",
      "null",
      '{"id":"x","type":"quote.created","created":"c"}',
      new Uint8Array([0xff, 0xfe]),
    ]) {
      const signed = signWebhook({ payload: body, secret, timestamp: t });
      expect(codeOf(() => verify({ payload: body, header: signed }))).toBe("invalid_payload");
    }
  });

  it("never throws anything but WebhookVerificationError for arbitrary headers (property)", () => {
    const part = fc.oneof(
      fc.string(),
      fc.constantFrom(`t=${t}`, "t=", "v1=", `v1=${"0".repeat(64)}`, "=", ",", "t=-1", "t=1e3", "v1=" + "g".repeat(64)),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), fc.string(), (parts, extra) => {
        const code = codeOf(() => verify({ header: parts.join(",") + extra }));
        expect(code).not.toBe("accepted");
      }),
      { numRuns: 500 },
    );
  });
});
