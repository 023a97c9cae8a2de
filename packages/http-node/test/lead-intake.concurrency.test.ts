import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "./support/lead-harness.js";

describe("lead intake under concurrency", () => {
  let h: LeadHarness;
  beforeAll(async () => {
    h = await startLeadHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("turns 50 identical signed leads sent at once into one lead, one message and 49 duplicates", async () => {
    const lead = sampleLead();
    const results = await Promise.all(Array.from({ length: 50 }, () => h.send(lead)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.json.duplicate === false)).toHaveLength(1);
    expect(results.filter((r) => r.json.duplicate === true)).toHaveLength(49);
    expect(new Set(results.map((r) => r.json.contact_id)).size).toBe(1);
    expect(new Set(results.map((r) => r.json.opportunity_id)).size).toBe(1);
    const contact = await h.storage.contacts.findByPhone(h.workspace.id, lead.contact.phone_e164);
    expect(await h.storage.opportunities.listByContact(contact!.id)).toHaveLength(1);
    expect(h.sentMessages.filter((m) => m.to === lead.contact.phone_e164)).toHaveLength(1);
  });
});

describe("lead intake with untrusted bodies (property)", () => {
  let h: LeadHarness;
  beforeAll(async () => {
    h = await startLeadHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const jsonish = fc.oneof(
    fc.string(),
    fc.json(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    // Near-valid leads with random parts swapped in: the interesting failures live here.
    fc
      .record({
        event: fc.oneof(fc.constant("lead.created"), fc.string()),
        source_lead_id: fc.oneof(fc.uuid(), fc.string(), fc.integer()),
        contact: fc.oneof(
          fc.record({ phone_e164: fc.oneof(fc.constant("+56912345678"), fc.string()), name: fc.oneof(fc.string(), fc.constant(null)) }),
          fc.jsonValue(),
        ),
        qualification: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
        whatsapp_consent: fc.oneof(fc.record({ granted: fc.boolean(), timestamp: fc.string() }), fc.jsonValue()),
        metadata: fc.jsonValue(),
      })
      .map((v) => JSON.stringify(v)),
  );

  it("never answers 5xx and never leaves a partial record", async () => {
    await fc.assert(
      fc.asyncProperty(jsonish, async (body) => {
        const { status } = await h.send(body);
        expect(status).toBeLessThan(500);
        expect([200, 400, 413, 422]).toContain(status);
      }),
      { numRuns: 150 },
    );
    // Every registered lead has exactly its opportunity and outbound record; nothing half-written.
    const leads = await h.storage.leads.countByWorkspace(h.workspace.id);
    const outbound = await h.storage.outbound.listByWorkspace(h.workspace.id);
    expect(outbound).toHaveLength(leads);
    for (const message of outbound) {
      const lead = await h.storage.leads.get(message.leadEventId);
      expect(lead).not.toBeNull();
      expect(await h.storage.opportunities.get(lead!.opportunityId)).not.toBeNull();
      expect(await h.storage.contacts.get(h.workspace.id, lead!.contactId)).not.toBeNull();
    }
  });
});
