import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostileString } from "../../core/test/support/hostile-strings.js";
import { startLeadHarness, sampleLead, type LeadHarness } from "../../http-node/test/support/lead-harness.js";
import { seedPerson, sendOnce } from "../../http-node/test/support/person-scenario.js";
import { backends, openTestStorage } from "./support.js";
import { scanSchema, scannedShape } from "./schema-scan.js";

// A person's erasure on PostgreSQL, end to end through the HTTP server: nothing of them is left in
// any column of any table, an opt-out outlives them, and a lead racing the erasure either lands
// after it (as a new person, blocked) or before it (and is erased with it). Races show on real
// PostgreSQL only (PGlite runs one transaction at a time); there they run 120 times.
const RACES_ON = { PGlite: 24, PostgreSQL: 120 } as const;
const AT_ONCE = 8;

describe.each(backends)("a person's data on %s", (backend) => {
  let h: LeadHarness;
  let db: { query(text: string, params?: unknown[]): Promise<{ rows: any[] }> };
  let schema: string;
  let adminKey: string;
  let origin: string;
  beforeAll(async () => {
    const opened = await openTestStorage(backend);
    db = opened.db as typeof db;
    schema = opened.schema;
    h = await startLeadHarness({ storage: opened.storage });
    origin = new URL(h.url).origin;
    adminKey = (
      await h.vitrina.apiKeys.issue({ userId: "owner-1" }, h.workspace.id, {
        name: "privacy",
        scopes: ["admin:read", "admin:write"],
      })
    ).secret;
  });
  afterAll(async () => {
    await h.close();
  });

  const erase = async (contactId: string) => {
    const response = await fetch(`${origin}/v1/contacts/${contactId}/erase`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminKey}` },
    });
    return { status: response.status, json: (await response.json()) as any };
  };

  it("after an erasure, no text, JSON or bytea column of any table holds the person's phone, email, name or words", async () => {
    const person = await seedPerson(h);
    const bystander = await seedPerson(h);
    const before = await scanSchema(db, schema, person.needles);
    // The scan finds what is there: every needle, in the contact, the leads, the messages, the attempts.
    expect(new Set(before.map((f) => f.needle))).toEqual(new Set(person.needles));
    for (const where of [
      "contacts.name",
      "lead_events.payload",
      "messages.content",
      "webhook_attempts.response_body_prefix",
      "agent_runs.trace",
    ])
      expect(before.map((f) => f.where)).toContain(where);

    const erased = await erase(person.contactId);
    expect(erased.status).toBe(200);
    expect(erased.json).toMatchObject({ contactId: person.contactId, requestedBy: expect.stringMatching(/^api_key:/) });
    // Its events: the one seeded and the welcome's conversation.started, each with pending deliveries.
    expect(erased.json.counts).toMatchObject({ contacts: 1, leads: 2, attempts: 1, messages: expect.any(Number) });
    expect(erased.json.counts.events).toBeGreaterThanOrEqual(1);
    expect(erased.json.counts.deliveriesCancelled).toBeGreaterThanOrEqual(1);

    const after = await scanSchema(db, schema, person.needles);
    const shape = await scannedShape(db, schema);
    console.info(
      `[${backend}] erasure scan: ${shape.tables} tables, ${shape.columns} text columns, ${before.length} findings before, ${after.length} after`,
    );
    expect(after).toEqual([]);
    // The other person is untouched, and the aggregate rows stay: two leads, from this connector.
    expect((await scanSchema(db, schema, [bystander.name])).length).toBeGreaterThan(0);
    const { rows } = await db.query(
      `SELECT count(*)::int AS n, min(connector_id) AS connector FROM "${schema}".lead_events WHERE contact_id = $1`,
      [person.contactId],
    );
    expect(rows[0]).toEqual({ n: 2, connector: h.connector.id });
    const { rows: recorded } = await db.query(`SELECT * FROM "${schema}".erasures WHERE contact_id = $1`, [
      person.contactId,
    ]);
    expect(recorded).toHaveLength(1);
    expect(JSON.stringify(recorded[0])).not.toContain(person.phone);
  });

  it("keeps an opted-out person suppressed: the same lead resent, and a new lead for the phone, are blocked", async () => {
    const person = await seedPerson(h);
    expect((await erase(person.contactId)).status).toBe(200);
    const sentBefore = h.sentMessages.length;
    const resent = await h.send(
      sampleLead({
        source_lead_id: `crm-${person.tag}-1`,
        contact: { phone_e164: person.phone, name: person.name, email: person.email },
      }),
    );
    expect(resent.status).toBe(200);
    expect(resent.json.contact_id).not.toBe(person.contactId);
    expect(resent.json.outbound).toMatchObject({ status: "blocked", reason: expect.stringMatching(/opted out/) });
    const fresh = await h.send(sampleLead({ contact: { phone_e164: person.phone, name: "Otro Nombre" } }));
    expect(fresh.json.outbound).toMatchObject({ status: "blocked", reason: expect.stringMatching(/opted out/) });
    expect(h.sentMessages.slice(sentBefore).filter((m) => m.to === person.phone)).toEqual([]);
    const contact = await h.storage.contacts.findByPhone(h.workspace.id, person.phone);
    expect(contact?.whatsappOptedOutAt).not.toBeNull();
    const [carried] = await h.storage.consentLedger.listByContact(h.workspace.id, contact!.id, { limit: 5 });
    expect(carried).toMatchObject({ kind: "opted_out", source: "service", sourceRef: "suppression" });

    // A person who had not opted out leaves no suppression entry: a later lead is a new person.
    const welcomed = await seedPerson(h, { optOut: false });
    expect((await erase(welcomed.contactId)).status).toBe(200);
    const again = await h.send(sampleLead({ contact: { phone_e164: welcomed.phone, name: "Nueva" } }));
    expect(again.json.outbound.status).toBe("sent");
  });

  it("answers hostile lookups (U+0000, lone surrogates, 10 KB) with invalid_payload or not_found, never a storage error", async () => {
    const value = fc.oneof(hostileString({ maxLength: 30 }), hostileString({ minLength: 10_000, maxLength: 10_100 }));
    const lookup = fc.record(
      { contact_id: value, phone: value, email: value, whatsapp_user_id: value, other: value },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(lookup, async (input) => {
        const outcome = await h.vitrina.privacy.find(h.workspace.id, input).then(
          () => "found",
          (error: { code?: string }) => error.code,
        );
        expect(["invalid_payload", "not_found"]).toContain(outcome);
      }),
      { numRuns: 100 },
    );
  });

  it(`a lead racing the erasure of its person lands after it (new person, blocked) or before it (erased with it) (${RACES_ON[backend]} races)`, async () => {
    const RACES = RACES_ON[backend];
    const wrong: string[] = [];
    let after = 0;
    let erasedWith = 0;
    async function race(jitterMs: number) {
      const person = await seedPerson(h);
      const sentBefore = h.sentMessages.filter((m) => m.to === person.phone).length;
      const [erasure, lead] = await Promise.all([
        new Promise((resolve) => setTimeout(resolve, jitterMs)).then(() =>
          h.vitrina.privacy.eraseContact({
            workspaceId: h.workspace.id,
            contactId: person.contactId,
            requestedBy: "test",
          }),
        ),
        sendOnce(h, sampleLead({ contact: { phone_e164: person.phone, name: person.name, email: person.email } })),
      ]);
      const label = `${person.phone} (jitter ${jitterMs} ms)`;
      if (erasure.counts.contacts !== 1) wrong.push(`${label}: erased ${erasure.counts.contacts} contacts`);
      if (lead.status !== 200)
        return void wrong.push(`${label}: lead answered ${lead.status} ${JSON.stringify(lead.json)}`);
      const stored = await h.storage.leads.get(lead.json.lead_event_id);
      if (lead.json.outbound.status !== "blocked") wrong.push(`${label}: lead ${lead.json.outbound.status}`);
      if (h.sentMessages.filter((m) => m.to === person.phone).length !== sentBefore) wrong.push(`${label}: messaged`);
      if (stored?.contactId === person.contactId) {
        erasedWith++;
        if (stored.payloadRedactedAt === undefined || JSON.stringify(stored.payload).includes(person.phone))
          wrong.push(`${label}: landed before, yet not erased`);
      } else {
        after++;
        const contact = await h.storage.contacts.get(h.workspace.id, stored!.contactId);
        if (contact?.phoneE164 !== person.phone || contact.whatsappOptedOutAt === null)
          wrong.push(`${label}: landed after as a new person, yet not suppressed`);
      }
      const old = await h.storage.contacts.get(h.workspace.id, person.contactId);
      if (old?.phoneE164 !== null || old.name !== null) wrong.push(`${label}: the erased contact kept data`);
    }
    // A race that throws (an erasure or a lead failing outright) is a violation too, with its error.
    const racing = (jitterMs: number) =>
      race(jitterMs).catch((error: unknown) => void wrong.push(`jitter ${jitterMs} ms: ${String(error)}`));
    for (let done = 0; done < RACES; done += AT_ONCE)
      await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => racing((done + i) % 15)));
    console.info(
      `[${backend}] erasure vs lead races: ${RACES}, lead after the erasure: ${after}, erased with it: ${erasedWith}, violations: ${wrong.length}`,
    );
    expect(wrong).toEqual([]);
  }, 300_000);
});
