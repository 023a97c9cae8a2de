import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "../../http-node/test/support/lead-harness.js";
import { backends, openTestStorage } from "./support.js";

// The whole intake path (client → http-node → core → PostgreSQL), where uniqueness is the
// database's job: the same lead sent 50 times at once must register once.
describe.each(backends)("lead intake over HTTP on %s", (backend) => {
  let h: LeadHarness;
  beforeAll(async () => {
    h = await startLeadHarness({ storage: (await openTestStorage(backend)).storage });
  });
  afterAll(async () => {
    await h.close();
  });

  it("turns 50 identical signed leads sent at once into one contact, one opportunity and one message", async () => {
    const lead = sampleLead();
    const results = await Promise.all(Array.from({ length: 50 }, () => h.send(lead)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(results.filter((r) => r.json.duplicate === false)).toHaveLength(1);
    expect(new Set(results.map((r) => r.json.opportunity_id)).size).toBe(1);
    const contact = await h.storage.contacts.findByPhone(h.workspace.id, lead.contact.phone_e164);
    expect(await h.storage.opportunities.listByContact(contact!.id)).toHaveLength(1);
    expect(await h.storage.leads.countByWorkspace(h.workspace.id)).toBe(1);
    expect(h.sentMessages).toHaveLength(1);
  });

  it("keeps one contact when different leads for the same new phone arrive at once", async () => {
    const phone = "+56977770001";
    const results = await Promise.all(
      Array.from({ length: 10 }, () => h.send(sampleLead({ contact: { phone_e164: phone } }))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.json.contact_id)).size).toBe(1);
    expect(new Set(results.map((r) => r.json.opportunity_id)).size).toBe(10);
  });
});
