import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostileString, percentEncode } from "../support/hostile-strings.js";
import { startAdminHarness, type AdminHarness } from "../support/admin-harness.js";
import { sampleLead } from "../support/lead-harness.js";
import { recordingLogger } from "../support/recording-logger.js";

// A person's data on request through the admin API, over a real socket: owners and admins find a
// person, download everything held about them, erase them; members and read-only keys can't.
describe("admin API: a person's data on request", () => {
  let h: AdminHarness;
  let intake: (lead: unknown) => Promise<{ status: number; json: any }>;
  let readKey: string;
  beforeAll(async () => {
    h = await startAdminHarness();
    const { connector, secret } = await h.vitrina.connectors.create(
      { userId: "owner-1" },
      { workspaceId: h.workspace.id, name: "HubSpot", systemId: "hubspot-main" },
    );
    intake = (lead) => h.sendLead(`${h.url}/functions/v1/lead-intake`, connector.id, secret, lead);
    await h.storage.workspaces.upsertMember({ workspaceId: h.workspace.id, userId: "member-1", role: "member" });
    readKey = (
      await h.vitrina.apiKeys.issue({ userId: "owner-1" }, h.workspace.id, { name: "read", scopes: ["admin:read"] })
    ).secret;
  });
  afterAll(async () => {
    await h.close();
  });

  const person = async () => {
    const lead = sampleLead();
    const { json } = await intake(lead);
    return { lead, contactId: json.contact_id as string, leadEventId: json.lead_event_id as string };
  };
  const download = async (contactId: string, as: string) => {
    const response = await h.fetch(`${h.url}/v1/contacts/${contactId}/export`, {
      headers: { authorization: `Bearer ${as}` },
    });
    return { response, text: await response.text() };
  };

  it("finds the person by phone, email or id, and streams one versioned JSON document of everything held", async () => {
    const { lead, contactId, leadEventId } = await person();
    const { phone_e164: phone, email } = lead.contact;
    for (const query of [
      `phone=${encodeURIComponent(phone)}`,
      `email=${encodeURIComponent(email.toUpperCase())}`,
      `contact_id=${contactId}`,
    ]) {
      const found = await h.call("GET", `/v1/privacy/lookup?${query}`, "console:owner-1");
      expect(found).toMatchObject({ status: 200, json: { contact_id: contactId } });
    }
    const { response, text } = await download(contactId, h.adminKey);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="contact-${contactId}.json"`);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const document = JSON.parse(text);
    expect(Object.keys(document)).toEqual([
      "format",
      "version",
      "exported_at",
      "workspace_id",
      "contact",
      "consent",
      "leads",
      "opportunities",
      "first_messages",
      "conversations",
      "messages",
      "events",
    ]);
    expect(document).toMatchObject({ format: "vitrina.personal-data", version: 1, workspace_id: h.workspace.id });
    expect(document.contact).toEqual(await h.storage.contacts.get(h.workspace.id, contactId));
    expect(document.leads).toEqual([await h.storage.leads.get(leadEventId)]);
    expect(document.leads[0].payload.metadata).toEqual(lead.metadata);
    expect(document.opportunities[0].qualification[0]).toMatchObject({ field: "monthly_income", value: 1_800_000 });
    expect(document.consent.map((e: any) => e.kind)).toEqual(["granted"]);
    expect(document.first_messages).toHaveLength(1);
  });

  it("refuses members and read-only keys, naming why, and erases nothing for them", async () => {
    const { contactId } = await person();
    for (const [as, code] of [
      ["console:member-1", "forbidden"],
      [readKey, "insufficient_scope"],
    ] as const) {
      expect(await h.call("GET", `/v1/privacy/lookup?contact_id=${contactId}`, as)).toMatchObject({
        status: 403,
        json: { error: { code } },
      });
      const { response, text } = await download(contactId, as);
      expect(response.status).toBe(403);
      expect(JSON.parse(text).error.code).toBe(code);
      expect((await h.call("POST", `/v1/contacts/${contactId}/erase`, as)).status).toBe(403);
      expect((await h.call("GET", "/v1/privacy/erasures", as)).status).toBe(403);
    }
    expect((await h.storage.contacts.get(h.workspace.id, contactId))?.phoneE164).not.toBeNull();
  });

  it("erases the person, records who asked with counts only, and the export then holds nothing of them", async () => {
    const { lead, contactId } = await person();
    const erased = await h.call("POST", `/v1/contacts/${contactId}/erase`, "console:owner-1");
    expect(erased.status).toBe(200);
    expect(erased.json).toMatchObject({ contactId, requestedBy: "console:owner-1", counts: { contacts: 1, leads: 1 } });
    const listed = await h.call("GET", "/v1/privacy/erasures?limit=5", h.adminKey);
    expect(listed.json.items[0]).toEqual(erased.json);
    const { text } = await download(contactId, h.adminKey);
    for (const value of [lead.contact.phone_e164, lead.contact.email, lead.contact.name, "google"])
      expect(text).not.toContain(value);
    expect(
      await h.call("GET", `/v1/privacy/lookup?phone=${encodeURIComponent(lead.contact.phone_e164)}`, h.adminKey),
    ).toMatchObject({
      status: 404,
      json: { error: { code: "not_found" } },
    });
    expect((await h.call("POST", `/v1/contacts/nope-${contactId}/erase`, h.adminKey)).status).toBe(404);
  });

  it("answers a lookup naming no field, two fields or an unknown one with 422 naming the field", async () => {
    const cases: Array<[string, string]> = [
      ["", ""],
      ["phone=%2B56911112222&email=a%40b.cl", "email"],
      ["name=Ana", "name"],
      ["phone=12345", "phone"],
      ["phone=%2B56911112222&phone=%2B56911112223", "phone"],
    ];
    for (const [query, field] of cases) {
      const answer = await h.call("GET", `/v1/privacy/lookup?${query}`, h.adminKey);
      expect(answer.status).toBe(422);
      expect(answer.json.error).toMatchObject({ code: "invalid_payload" });
      expect(answer.json.error.reasons[0].field).toBe(field);
    }
  });

  it("answers hostile lookups (U+0000, lone surrogates, long and repeated fields) with a stable 4xx, never a 500", async () => {
    const name = fc.constantFrom("contact_id", "phone", "email", "whatsapp_user_id", "x", "");
    const value = fc.oneof(
      hostileString({ maxLength: 40 }),
      hostileString({ minLength: 300, maxLength: 400 }),
      fc.constant("+56911112222"),
    );
    const query = fc.array(fc.tuple(name, value), { maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const search = pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join("&");
        const answer = await h.call("GET", `/v1/privacy/lookup?${search}`, h.adminKey);
        // 400: a %00 the router refuses for every route; 422: the lookup's own validation.
        expect([200, 400, 404, 422]).toContain(answer.status);
        if (answer.status !== 200)
          expect(answer.json.error.code).toMatch(/^(invalid_argument|invalid_payload|not_found)$/);
        if (answer.status === 422) expect(typeof answer.json.error.reasons[0].field).toBe("string");
      }),
      { numRuns: 150 },
    );
  });
});

describe("admin API: an erasure in the logs", () => {
  it("is logged with ids, who asked and counts, and nothing of the person", async () => {
    const { logger, entries } = recordingLogger();
    const h = await startAdminHarness({ logger });
    try {
      const { connector, secret } = await h.vitrina.connectors.create(
        { userId: "owner-1" },
        { workspaceId: h.workspace.id, name: "HubSpot", systemId: "hubspot-main" },
      );
      const lead = sampleLead();
      const { json } = await h.sendLead(`${h.url}/functions/v1/lead-intake`, connector.id, secret, lead);
      await h.vitrina.contacts.optOutOfWhatsApp({ workspaceId: h.workspace.id, phoneE164: lead.contact.phone_e164 });
      entries.length = 0;
      const erased = await h.call("POST", `/v1/contacts/${json.contact_id}/erase`, h.adminKey);
      expect(erased.status).toBe(200);
      const logged = entries.filter((e) => e.message === "contact erased");
      expect(logged).toEqual([
        {
          level: "info",
          message: "contact erased",
          fields: {
            workspaceId: h.workspace.id,
            contactId: json.contact_id,
            erasureId: erased.json.id,
            requestedBy: "api_key",
            counts: erased.json.counts,
            suppressed: true,
          },
        },
      ]);
      const everything = JSON.stringify(entries);
      for (const value of [lead.contact.phone_e164, lead.contact.email, lead.contact.name])
        expect(everything).not.toContain(value);
    } finally {
      await h.close();
    }
  });
});
