import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "../../http-node/test/support/lead-harness.js";
import { backends, openTestStorage } from "./support.js";

// PostgreSQL's text and jsonb cannot hold U+0000, and a lone UTF-16 surrogate has no UTF-8 form:
// such strings anywhere in a signed lead are refused at the edge (422 naming the JSON path), on
// every backend alike, instead of reaching the driver and answering 500.
const cases: Array<{ name: string; body: (nul: string) => string; field: string }> = [
  {
    name: "source_lead_id",
    body: (bad) => JSON.stringify(sampleLead({ source_lead_id: `crm-${bad}` })),
    field: "source_lead_id",
  },
  {
    name: "contact.name",
    body: (bad) => JSON.stringify(sampleLead({ contact: { phone_e164: "+56911112222", name: `Ana${bad}` } })),
    field: "contact.name",
  },
  {
    name: "a metadata value in an array",
    body: (bad) => JSON.stringify(sampleLead({ metadata: { a: [1, 2, `x${bad}`] } })),
    field: "metadata.a[2]",
  },
  {
    name: "a metadata key",
    body: (bad) => JSON.stringify(sampleLead({ metadata: { [`k${bad}`]: 1 } })),
    field: "metadata",
  },
];
const badText = { "U+0000": "\\u0000", "a lone high surrogate": "\\ud800", "a lone low surrogate": "\\udfff" };

describe.each(["memory", ...backends] as const)("lead intake refuses unstorable text on %s", (backend) => {
  let h: LeadHarness;
  beforeAll(async () => {
    h = await startLeadHarness(backend === "memory" ? {} : { storage: (await openTestStorage(backend)).storage });
  });
  afterAll(() => h.close());

  for (const [what, escape] of Object.entries(badText)) {
    for (const c of cases) {
      it(`${what} in ${c.name}`, async () => {
        // JSON.stringify escapes lone surrogates; U+0000 is written as its JSON escape too.
        const body = c.body("BAD").replace("BAD", escape);
        const { status, json } = await h.send(body);
        expect(status).toBe(422);
        expect(json.error.code).toBe("invalid_payload");
        expect(json.error.reasons).toHaveLength(1);
        expect(json.error.reasons[0].field.startsWith(c.field)).toBe(true);
        expect(json.error.reasons[0].reason).toMatch(/U\+0000|surrogate/);
        expect(await h.counts()).toEqual({ leads: 0, outbound: 0, sent: 0 });
      });
    }
  }

  it("refuses a number too large for a double (1e400 would be stored as null) naming its path", async () => {
    const body = JSON.stringify(sampleLead({ metadata: { score: "BIG", nested: [1, "SMALL"] } }))
      .replace('"BIG"', "1e400")
      .replace('"SMALL"', "-2e999");
    const { status, json } = await h.send(body);
    expect(status).toBe(422);
    expect(json.error.code).toBe("invalid_payload");
    expect(json.error.reasons).toEqual([
      { field: "metadata.score", reason: expect.stringContaining("too large") },
      { field: "metadata.nested[1]", reason: expect.stringContaining("too large") },
    ]);
    expect(await h.counts()).toEqual({ leads: 0, outbound: 0, sent: 0 });
    // The largest double and the smallest denormal still pass, as sent.
    const fine = JSON.stringify(
      sampleLead({ contact: { phone_e164: "+56955556666" }, metadata: { a: 1.7976931348623157e308, b: 5e-324 } }),
    );
    expect((await h.send(fine)).status).toBe(200);
  });

  it("refuses an integer that would come back as another integer (stored rounded) naming its path", async () => {
    // JSON.stringify can't write these: the body is spliced as text, as a CRM would send it.
    const body = JSON.stringify(sampleLead({ metadata: { hubspot_id: "ID", ids: [1, "exact", "NEG"] } }))
      .replace('"ID"', "12345678901234567891")
      .replace('"exact"', "12345678901234567000")
      .replace('"NEG"', "-98765432109876543210");
    const before = await h.counts();
    const { status, json } = await h.send(body);
    expect(status).toBe(422);
    expect(json.error.code).toBe("invalid_payload");
    expect(json.error.reasons).toEqual([
      {
        field: "metadata.hubspot_id",
        reason:
          "is an integer beyond ±9007199254740991 that would be stored as 12345678901234567000, not as sent: send it as a string",
      },
      { field: "metadata.ids[2]", reason: expect.stringContaining("stored as -98765432109876540000, not as sent") },
    ]);
    expect(await h.counts()).toEqual(before);
  });

  it("stores big integers that come back as written, and a big id sent as a string, as sent", async () => {
    const metadata =
      '{"hubspot_id":"12345678901234567891","exact":12345678901234567000,"pow":1000000000000000000,"e":5e20}';
    const lead = sampleLead({ contact: { phone_e164: "+56977778888" }, metadata: "METADATA" });
    expect((await h.send(JSON.stringify(lead).replace('"METADATA"', metadata))).status).toBe(200);
    const stored = (await h.storage.leads.findBySourceId(h.connector.id, lead.source_lead_id))!.payload
      .metadata as Record<string, number>;
    expect(stored.hubspot_id).toBe("12345678901234567891");
    // What a reader gets back is JSON: each number written back as the integer that was sent.
    expect(JSON.stringify(stored.exact)).toBe("12345678901234567000");
    expect(JSON.stringify(stored.pow)).toBe("1000000000000000000");
    expect(JSON.stringify(stored.e)).toBe("500000000000000000000");
  });

  it("still accepts text with other control characters and astral characters", async () => {
    const { status } = await h.send(
      sampleLead({ contact: { phone_e164: "+56933334444", name: "Ana \u0001 😀" }, metadata: { note: "tab\there" } }),
    );
    expect(status).toBe(200);
  });
});
