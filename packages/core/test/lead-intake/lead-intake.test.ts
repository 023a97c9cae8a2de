import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LeadIntakeError, sendLead } from "@vitrina/client";
import { MessagingError } from "@vitrina/core";
import { sampleLead, startLeadHarness, type LeadHarness } from "../support/lead-harness.js";

describe("lead intake through the handler (client → core)", () => {
  let h: LeadHarness;
  beforeEach(async () => {
    h = await startLeadHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it("accepts a signed lead: contact, opportunity, qualification, first message sent", async () => {
    const lead = sampleLead();
    const { status, json } = await h.send(lead);
    expect(status).toBe(200);
    expect(json).toMatchObject({
      accepted: true,
      duplicate: false,
      eligible_for_whatsapp: true,
      outbound: { status: "sent", reason: null },
      qualification: { recorded: [{ field: "monthly_income", value: 1_800_000 }], rejected: [] },
    });
    const contact = await h.storage.contacts.get(h.workspace.id, json.contact_id);
    expect(contact).toMatchObject({
      phoneE164: lead.contact.phone_e164,
      name: "María Pérez",
      email: lead.contact.email,
    });
    expect(contact?.whatsappConsent).toMatchObject({
      granted: true,
      source: "landing-form",
      connectorId: h.connector.id,
    });
    const opportunity = await h.storage.opportunities.get(json.opportunity_id);
    expect(opportunity?.qualification).toEqual([
      {
        field: "monthly_income",
        value: 1_800_000,
        evidence: { connectorId: h.connector.id, leadEventId: json.lead_event_id, recordedAt: expect.any(String) },
      },
    ]);
    expect(opportunity).toMatchObject({ source: "landing", campaignId: "spring", catalogItemId: "unit-101" });
    expect(h.sentMessages).toHaveLength(1);
    expect(h.sentMessages[0]).toMatchObject({
      to: lead.contact.phone_e164,
      template: { name: "vitrina_welcome", bodyParameters: ["María Pérez"] },
    });
  });

  it("answers a resend with duplicate: true and the previous state, creating and sending nothing", async () => {
    const lead = sampleLead();
    const first = await h.send(lead);
    const again = await h.send(lead);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ ...first.json, duplicate: true });
    expect(await h.counts()).toEqual({ leads: 1, outbound: 1, sent: 1 });
    expect(h.sentMessages).toHaveLength(1);
  });

  it("resolves an existing contact by phone, fills empty fields and never overwrites", async () => {
    const first = await h.send(sampleLead({ contact: { phone_e164: "+56955550001", name: "Ana" } }));
    const second = await h.send(
      sampleLead({ contact: { phone_e164: "+56955550001", name: "Otra Ana", email: "ana@example.cl" } }),
    );
    expect(second.json.contact_id).toBe(first.json.contact_id);
    expect(second.json.opportunity_id).not.toBe(first.json.opportunity_id);
    expect(await h.storage.contacts.get(h.workspace.id, first.json.contact_id)).toMatchObject({
      name: "Ana",
      email: "ana@example.cl",
    });
  });

  it("gives a new phone its own contact, flagged as a possible duplicate of the one with its email", async () => {
    const first = await h.send(sampleLead({ contact: { phone_e164: "+56955550002", email: "same@example.cl" } }));
    const second = await h.send(sampleLead({ contact: { phone_e164: "+56955550003", email: "SAME@example.cl" } }));
    expect(second.json.contact_id).not.toBe(first.json.contact_id);
    expect(await h.storage.contacts.get(h.workspace.id, second.json.contact_id)).toMatchObject({
      phoneE164: "+56955550003",
      possibleDuplicateOf: first.json.contact_id,
    });
  });

  it("works with the client's sendLead: typed response, then a typed error", async () => {
    const response = await sendLead(h.url, {
      connectorId: h.connector.id,
      secret: h.secret,
      lead: sampleLead() as never,
      fetch: h.fetch,
    });
    expect(response).toMatchObject({ accepted: true, duplicate: false, outbound: { status: "sent" } });
    const error = await sendLead(h.url, {
      connectorId: h.connector.id,
      secret: "vtr_cs_wrong",
      lead: sampleLead() as never,
      fetch: h.fetch,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeadIntakeError);
    expect(error).toMatchObject({ status: 401, code: "invalid_signature" });
  });

  describe("signature, timestamp and connector", () => {
    it.each([
      [
        "a bad signature",
        (body: string) => ({ ...h.signedHeaders(body), "X-Vitrina-Signature": "ab".repeat(32) }),
        "invalid_signature",
      ],
      [
        "a non-hex signature",
        (body: string) => ({ ...h.signedHeaders(body), "X-Vitrina-Signature": "zz" }),
        "invalid_signature",
      ],
      ["the wrong secret", (body: string) => h.signedHeaders(body, { secret: "vtr_cs_wrong" }), "invalid_signature"],
      [
        "an expired timestamp",
        (body: string) => h.signedHeaders(body, { timestamp: String(h.clock.now().getTime() - 5 * 60_000 - 1) }),
        "timestamp_expired",
      ],
      [
        "a future timestamp",
        (body: string) => h.signedHeaders(body, { timestamp: String(h.clock.now().getTime() + 5 * 60_000 + 1) }),
        "timestamp_in_future",
      ],
      [
        "a timestamp in seconds-with-fraction",
        (body: string) => h.signedHeaders(body, { timestamp: "1700000000.5" }),
        "invalid_timestamp",
      ],
      [
        "an unknown connector",
        (body: string) => h.signedHeaders(body, { connectorId: crypto.randomUUID() }),
        "unknown_connector",
      ],
      [
        "a connector id that is not a UUID",
        (body: string) => h.signedHeaders(body, { connectorId: "hubspot" }),
        "unknown_connector",
      ],
      ["missing headers", () => ({ "Content-Type": "application/json" }), "missing_signature_headers"],
    ])("rejects %s with 401", async (_name, headersFor, code) => {
      const body = JSON.stringify(sampleLead());
      const { status, json } = await h.post(body, headersFor(body));
      expect(status).toBe(401);
      expect(json.error.code).toBe(code);
      expect(json.error.message).toEqual(expect.any(String));
      expect(await h.counts()).toEqual({ leads: 0, outbound: 0, sent: 0 });
    });

    it("says a timestamp in seconds looks like seconds and asks for milliseconds", async () => {
      const seconds = String(Math.floor(h.clock.now().getTime() / 1000));
      const { status, json } = await h.send(sampleLead(), { timestamp: seconds });
      expect(status).toBe(401);
      expect(json.error).toMatchObject({
        code: "timestamp_expired",
        message: "X-Vitrina-Timestamp looks like seconds: send milliseconds (Date.now(), not Date.now() / 1000)",
      });
    });

    it("accepts timestamps at the edges of the 5-minute window", async () => {
      const now = h.clock.now().getTime();
      expect((await h.send(sampleLead(), { timestamp: String(now - 5 * 60_000) })).status).toBe(200);
      expect((await h.send(sampleLead(), { timestamp: String(now + 5 * 60_000) })).status).toBe(200);
    });

    it("rejects a body tampered after signing", async () => {
      const body = JSON.stringify(sampleLead());
      const headers = h.signedHeaders(body);
      const { status, json } = await h.post(body.replace("María", "Mario"), headers);
      expect(status).toBe(401);
      expect(json.error.code).toBe("invalid_signature");
    });

    it("verifies the raw bytes, not a re-serialisation", async () => {
      const body = `{ "event":"lead.created",\n  "source_lead_id":"raw-1","contact":{"phone_e164":"+56955550009"} }`;
      const { status, json } = await h.send(body);
      expect(status).toBe(200);
      expect(json.accepted).toBe(true);
    });

    it("stops accepting the old secret as soon as the connector is rotated", async () => {
      const { secret: newSecret } = await h.vitrina.connectors.rotate(
        { userId: "owner-1" },
        { connectorId: h.connector.id },
      );
      expect((await h.send(sampleLead())).json.error.code).toBe("invalid_signature");
      expect((await h.send(sampleLead(), { secret: newSecret })).status).toBe(200);
    });
  });

  describe("payload", () => {
    it("rejects malformed JSON with 400", async () => {
      const { status, json } = await h.send("{not json");
      expect(status).toBe(400);
      expect(json.error.code).toBe("malformed_json");
    });

    it("rejects a wrong content type with 415", async () => {
      const body = JSON.stringify(sampleLead());
      const { status, json } = await h.post(body, { ...h.signedHeaders(body), "Content-Type": "text/plain" });
      expect(status).toBe(415);
      expect(json.error.code).toBe("unsupported_media_type");
    });

    it("rejects a body over 64 KiB with 413", async () => {
      const { status, json } = await h.send(sampleLead({ metadata: { blob: "x".repeat(70_000) } }));
      expect(status).toBe(413);
      expect(json.error.code).toBe("payload_too_large");
    });

    it("names the intake's 64 KiB limit for a 2 MB lead, not the 1 MiB limit of the Node listener in front of it", async () => {
      const { status, json } = await h.send(sampleLead({ metadata: { blob: "x".repeat(2_000_000) } }));
      expect(status).toBe(413);
      expect(json.error).toMatchObject({
        code: "payload_too_large",
        message: "request body exceeds the limit of 65536 bytes",
      });
    });

    it("rejects a wrong event, an invalid phone and unknown keys with 422 listing every reason", async () => {
      const { status, json } = await h.send(
        sampleLead({ event: "lead.updated", contact: { phone_e164: "56912345678", nickname: "x" }, extra: 1 }),
      );
      expect(status).toBe(422);
      expect(json.error.code).toBe("invalid_payload");
      const fields = json.error.reasons.map((r: { field: string }) => r.field).sort();
      expect(fields).toEqual(["contact.nickname", "contact.phone_e164", "event", "extra"]);
      expect(json.error.reasons.find((r: { field: string }) => r.field === "event").reason).toBe(
        'must be "lead.created"',
      );
      expect(await h.counts()).toEqual({ leads: 0, outbound: 0, sent: 0 });
    });

    it("rejects free-form data nested too deep (which would overflow storage) with 422 naming the field", async () => {
      const deep = "[".repeat(20_000) + "]".repeat(20_000);
      const body = JSON.stringify(sampleLead()).replace('"metadata":{', `"metadata":{"blob":${deep},`);
      const { status, json } = await h.send(body);
      expect(status).toBe(422);
      expect(json.error.reasons).toEqual([{ field: "metadata.blob", reason: "nests deeper than 32 levels" }]);
      expect(await h.counts()).toEqual({ leads: 0, outbound: 0, sent: 0 });
    });

    it("rejects a missing source_lead_id and a non-UTC consent timestamp", async () => {
      const lead: Record<string, unknown> = sampleLead({
        whatsapp_consent: { granted: true, timestamp: "2026-01-31 12:00" },
      });
      delete lead.source_lead_id;
      const { status, json } = await h.send(lead);
      expect(status).toBe(422);
      expect(json.error.reasons.map((r: { field: string }) => r.field).sort()).toEqual([
        "source_lead_id",
        "whatsapp_consent.timestamp",
      ]);
    });

    it.each([
      ["a text amount with dots", "1.000.000", /text amounts are not accepted/],
      ["a text amount with a symbol", "$800k", /text amounts are not accepted/],
      ["a text range", "800000-1200000", /ranges are not accepted/],
      ["an object range", { min: 800000, max: 1200000 }, /ranges are not accepted/],
      ["a negative number", -1, /must be >= 0/],
      ["a boolean", true, /must be a finite number >= 0/],
    ])("registers the lead but rejects %s in qualification with its reason", async (_name, value, reason) => {
      const { status, json } = await h.send(sampleLead({ qualification: { monthly_income: value } }));
      expect(status).toBe(200);
      expect(json.accepted).toBe(true);
      expect(json.qualification.recorded).toEqual([]);
      expect(json.qualification.rejected).toEqual([{ field: "monthly_income", reason: expect.stringMatching(reason) }]);
      expect((await h.storage.opportunities.get(json.opportunity_id))?.qualification).toEqual([]);
      expect((await h.storage.leads.get(json.lead_event_id))?.qualificationRejected).toEqual(
        json.qualification.rejected,
      );
    });

    it("rejects unknown qualification fields and non-finite numbers, keeping valid ones", async () => {
      const body = JSON.stringify(sampleLead({ qualification: { monthly_income: 1, budget: 5 } })).replace(
        '"monthly_income":1',
        '"monthly_income":1e400,"savings":2',
      );
      const { json } = await h.send(body);
      expect(json.qualification.rejected).toEqual([
        { field: "monthly_income", reason: "must be a finite number (CLP)" },
        { field: "savings", reason: expect.stringMatching(/unknown qualification field for the real_estate vertical/) },
        { field: "budget", reason: expect.stringMatching(/accepted: monthly_income/) },
      ]);
    });

    it("rejects an integer a double can't hold exactly as that field, and records one it holds", async () => {
      const lossy = JSON.stringify(sampleLead()).replace(
        '"monthly_income":1800000',
        '"monthly_income":9007199254740993',
      );
      const { status, json } = await h.send(lossy);
      expect(status).toBe(200);
      expect(json.qualification).toEqual({
        recorded: [],
        rejected: [
          {
            field: "monthly_income",
            reason:
              "is an integer beyond ±9007199254740991 that would be recorded as 9007199254740992, not as sent; send a smaller number (CLP)",
          },
        ],
      });
      // A fraction beyond the bound is lost the same way.
      const fraction = JSON.stringify(sampleLead()).replace(
        '"monthly_income":1800000',
        '"monthly_income":9007199254740993.5',
      );
      expect((await h.send(fraction)).json.qualification.rejected).toEqual([
        {
          field: "monthly_income",
          reason:
            "is a number beyond ±9007199254740991 that would be recorded as 9007199254740994, not as sent; send a smaller number (CLP)",
        },
      ]);
      const exact = JSON.stringify(sampleLead()).replace(
        '"monthly_income":1800000',
        '"monthly_income":9007199254740992',
      );
      expect((await h.send(exact)).json.qualification).toEqual({
        recorded: [{ field: "monthly_income", value: 2 ** 53 }],
        rejected: [],
      });
    });
  });

  describe("first message", () => {
    it.each([
      ["no consent", { whatsapp_consent: undefined }, "no whatsapp_consent in the lead"],
      [
        "consent not granted",
        { whatsapp_consent: { granted: false, timestamp: "2026-01-31T12:00:00Z" } },
        "whatsapp_consent.granted is false",
      ],
      ["consent without timestamp", { whatsapp_consent: { granted: true } }, expect.stringMatching(/no timestamp/)],
    ])("registers the lead but blocks the message with %s", async (_name, over, reason) => {
      const { status, json } = await h.send(sampleLead(over));
      expect(status).toBe(200);
      expect(json).toMatchObject({
        accepted: true,
        eligible_for_whatsapp: false,
        outbound: { status: "blocked", reason },
      });
      expect(h.sentMessages).toHaveLength(0);
    });

    it("welcomes a person once a day, and later into the same WhatsApp conversation", async () => {
      const phone = "+56955550200";
      const first = await h.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" } }));
      const second = await h.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" } }));
      expect(first.json.outbound.status).toBe("sent");
      expect(second.json).toMatchObject({
        eligible_for_whatsapp: false,
        outbound: { status: "blocked", reason: expect.stringContaining(`lead ${first.json.lead_event_id}`) },
      });
      h.clock.advance(24 * 60 * 60 * 1000 + 1);
      const nextDay = await h.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" } }));
      expect(nextDay.json.outbound.status).toBe("sent");
      expect(h.sentMessages.filter((m) => m.to === phone)).toHaveLength(2);
      const threads = (await h.storage.conversations.listByWorkspace(h.workspace.id)).filter(
        (c) => c.contactId === first.json.contact_id,
      );
      expect(threads).toHaveLength(1);
      expect(await h.storage.messages.listByConversation(threads[0]!.id)).toHaveLength(2);
    });

    it("blocks a contact that opted out before, even when the lead carries consent", async () => {
      await h.vitrina.contacts.optOutOfWhatsApp({ workspaceId: h.workspace.id, phoneE164: "+56955550100" });
      const { json } = await h.send(sampleLead({ contact: { phone_e164: "+56955550100", name: "Opted Out" } }));
      expect(json).toMatchObject({
        accepted: true,
        eligible_for_whatsapp: false,
        outbound: { status: "blocked", reason: expect.stringMatching(/opted out/) },
      });
      expect(h.sentMessages).toHaveLength(0);
    });
  });
});

describe("first message with a failing or queuing provider", () => {
  it("registers the lead as failed with the provider's reason", async () => {
    const h = await startLeadHarness({
      messaging: {
        send: async () =>
          Promise.reject(new MessagingError("WhatsApp Cloud API error 400 (code 131026): Message undeliverable")),
      },
    });
    try {
      const { status, json } = await h.send(sampleLead());
      expect(status).toBe(200);
      expect(json).toMatchObject({
        accepted: true,
        eligible_for_whatsapp: true,
        outbound: { status: "failed", reason: expect.stringMatching(/131026/) },
      });
      expect((await h.storage.outbound.findByLeadEvent(json.lead_event_id))?.status).toBe("failed");
    } finally {
      await h.close();
    }
  });

  it("hides an unexpected transport crash behind a generic reason", async () => {
    const h = await startLeadHarness({
      messaging: { send: async () => Promise.reject(new TypeError("boom at line 3")) },
    });
    try {
      const { json } = await h.send(sampleLead());
      expect(json.outbound).toEqual({ status: "failed", reason: "messaging transport failed unexpectedly" });
    } finally {
      await h.close();
    }
  });

  it("reports queued when the provider holds the message", async () => {
    const h = await startLeadHarness({
      messaging: { send: async () => ({ status: "queued", providerMessageId: "wamid.1" }) },
    });
    try {
      const { json } = await h.send(sampleLead());
      expect(json.outbound).toEqual({
        status: "queued",
        reason: "accepted by the messaging provider; its delivery report comes by webhook",
      });
    } finally {
      await h.close();
    }
  });
});
