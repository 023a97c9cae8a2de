import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { entries, vectors } from "./entries.js";

describe("signature-vectors.json", () => {
  it("agrees with node:crypto (the file itself was generated with openssl)", () => {
    expect(vectors.length).toBeGreaterThanOrEqual(8);
    for (const v of vectors) {
      expect(createHmac("sha256", v.secret).update(`${v.timestamp}.${v.body}`).digest("hex"), v.name).toBe(v.signature);
    }
  });
});

describe.each(entries)("%s", (_, client) => {
  it.each(vectors)("signLead: $name", (v) => {
    const { headers, body } = client.signLead({
      connectorId: "conn-1",
      secret: v.secret,
      body: v.body,
      timestamp: v.timestamp,
    });
    expect(body).toBe(v.body);
    expect(headers).toEqual({
      "Content-Type": "application/json",
      "X-Vitrina-Connector-Id": "conn-1",
      "X-Vitrina-Timestamp": v.timestamp,
      "X-Vitrina-Signature": v.signature,
    });
  });

  it.each(vectors)("signWebhook and verifyWebhook (string and bytes): $name", (v) => {
    const header = client.signWebhook({ payload: v.body, secret: v.secret, timestamp: Number(v.timestamp) });
    expect(header).toBe(`t=${v.timestamp},v1=${v.signature}`);
    const bytes = new TextEncoder().encode(v.body);
    expect(client.signWebhook({ payload: bytes, secret: v.secret, timestamp: Number(v.timestamp) })).toBe(header);
    // The vectors' bodies aren't all envelopes, so anything past the signature check is invalid_payload.
    for (const payload of [v.body, bytes]) {
      const verify = () => client.verifyWebhook({ payload, header, secret: v.secret, now: Number(v.timestamp) * 1000 });
      try {
        verify();
      } catch (error) {
        expect(error).toMatchObject({ code: "invalid_payload" });
      }
    }
  });

  it("signLead serialises an object once and returns that exact string", () => {
    const lead = { event: "lead.created", source_lead_id: "x", contact: { phone_e164: "+56911112222" } } as const;
    const { headers, body } = client.signLead({ connectorId: "c", secret: "s", body: lead, timestamp: 1 });
    expect(body).toBe(JSON.stringify(lead));
    expect(headers["X-Vitrina-Signature"]).toBe(createHmac("sha256", "s").update(`1.${body}`).digest("hex"));
  });

  it("signLead defaults the timestamp to Date.now() in ms and honours headerPrefix", () => {
    const before = Date.now();
    const { headers } = client.signLead({ connectorId: "c", secret: "s", body: "{}", headerPrefix: "Acme" });
    expect(Object.keys(headers).sort()).toEqual([
      "Content-Type",
      "X-Acme-Connector-Id",
      "X-Acme-Signature",
      "X-Acme-Timestamp",
    ]);
    expect(Number(headers["X-Acme-Timestamp"])).toBeGreaterThanOrEqual(before);
    expect(Number(headers["X-Acme-Timestamp"])).toBeLessThanOrEqual(Date.now());
  });
});
