import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Storage } from "@vitrina/core";
import { backends, openTestStorage } from "../../../adapter-postgres/test/support.js";
import { hostileJson, hostileJsonValue, hostileString } from "../support/hostile-strings.js";
import { sampleLead, startLeadHarness, type LeadHarness } from "../support/lead-harness.js";

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

// Strings carry U+0000 and lone surrogates (which only PostgreSQL refuses), in every field including
// source_lead_id, name and metadata: so the property runs on memory, PGlite and a real server.
const storages: Array<[string, () => Promise<Storage | undefined>]> = [
  ["memory", async () => undefined],
  ...backends.map((backend): [string, () => Promise<Storage | undefined>] => [
    backend,
    async () => (await openTestStorage(backend)).storage,
  ]),
];

describe.each(storages)("lead intake with untrusted bodies on %s (property)", (_name, openStorage) => {
  let h: LeadHarness;
  beforeAll(async () => {
    const storage = await openStorage();
    h = await startLeadHarness(storage === undefined ? {} : { storage });
  });
  afterAll(async () => {
    await h.close();
  });

  const text = hostileString();
  const jsonish = fc.oneof(
    text,
    hostileJson(),
    hostileJsonValue().map((v) => JSON.stringify(v)),
    // Near-valid leads with random parts swapped in: the interesting failures live here.
    fc
      .record({
        event: fc.oneof(fc.constant("lead.created"), text),
        source_lead_id: fc.oneof(fc.uuid(), text, fc.integer()),
        contact: fc.oneof(
          fc.record({
            phone_e164: fc.oneof(fc.constant("+56912345678"), text),
            name: fc.oneof(text, fc.constant(null)),
          }),
          hostileJsonValue(),
        ),
        qualification: fc.oneof(fc.dictionary(text, hostileJsonValue()), hostileJsonValue()),
        whatsapp_consent: fc.oneof(fc.record({ granted: fc.boolean(), timestamp: text }), hostileJsonValue()),
        metadata: hostileJsonValue(),
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
