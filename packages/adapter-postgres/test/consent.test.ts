import type { Storage } from "@vitrina/core";
import { fixtures } from "@vitrina/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "../../http-node/test/support/lead-harness.js";
import { backends, openTestStorage } from "./support.js";

// The promises a business makes to the people it messages, under concurrency. Races only show on
// real PostgreSQL (PGlite runs one transaction at a time), where they run many times and count
// violations; on PGlite the same tests check the sequential behaviour, which a fifth of the runs shows.
const RACES_ON = { PGlite: 30, PostgreSQL: 150 } as const;
const AT_ONCE = 10;

let phoneCounter = 0;
const newPhone = () => `+5698${String(Date.now() % 1_000_000).padStart(6, "0")}${String(phoneCounter++ % 10)}`;

describe.each(backends)("consent and first messages on %s", (backend) => {
  const RACES = RACES_ON[backend];
  let h: LeadHarness;
  beforeAll(async () => {
    h = await startLeadHarness({ storage: (await openTestStorage(backend)).storage });
  });
  afterAll(async () => {
    await h.close();
  });

  it(`never loses an opt-out to a consented lead registering at the same time (${RACES} races)`, async () => {
    let lost = 0;
    let messagedAfterOptOut = 0;
    async function race(phone: string, jitterMs: number) {
      // The contact exists (a lead without consent), then consented leads and an opt-out race.
      await h.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" }, whatsapp_consent: undefined }));
      // A few leads per race, each a read-then-write that can straddle the opt-out's commit. The
      // opt-out starts after a jitter that sweeps across the leads' HTTP and transaction time, so
      // the races land at every point of a lead's transaction, not only before or after it.
      const [, ...leads] = await Promise.all([
        new Promise((resolve) => setTimeout(resolve, jitterMs)).then(() =>
          h.vitrina.contacts.optOutOfWhatsApp({ workspaceId: h.workspace.id, phoneE164: phone }),
        ),
        ...Array.from({ length: 3 }, () => h.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" } }))),
      ]);
      expect(leads.map((l) => l.status)).toEqual([200, 200, 200]);
      const contact = await h.storage.contacts.findByPhone(h.workspace.id, phone);
      if (contact?.whatsappOptedOutAt == null) lost++;
      // The opt-out has returned: a later lead must be blocked because of it.
      const later = await h.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" } }));
      if (later.json.outbound.status !== "blocked" || !/opted out/.test(later.json.outbound.reason))
        messagedAfterOptOut++;
    }
    for (let done = 0; done < RACES; done += AT_ONCE) {
      await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => race(newPhone(), (done + i) % 12)));
    }
    console.info(
      `[${backend}] opt-out races: ${RACES}, opt-outs lost: ${lost}, later leads not blocked by the opt-out: ${messagedAfterOptOut}`,
    );
    expect({ lost, messagedAfterOptOut }).toEqual({ lost: 0, messagedAfterOptOut: 0 });
  });

  it(`hands a new person's first message over with their registration only while no opt-out exists (${RACES} races)`, async () => {
    // The phone is new: the lead's registration creates the contact and hands the message over in
    // one step, while an opt-out for the same phone (which creates the contact when it comes first)
    // starts at a jitter across the lead's HTTP and statement time. The storage notes which leads
    // registered as a new person, i.e. came first.
    const { storage } = await openTestStorage(backend);
    const cameFirst = new Set<string>();
    const noting: Storage = {
      ...storage,
      leads: {
        ...storage.leads,
        async registerNewPerson(contact, ...rest) {
          const registered = await storage.leads.registerNewPerson(contact, ...rest);
          if (registered) cameFirst.add(contact.phoneE164!);
          return registered;
        },
      },
    };
    const own = await startLeadHarness({ storage: noting });
    const wrong: string[] = [];
    async function race(phone: string, jitterMs: number) {
      const [, lead] = await Promise.all([
        new Promise((resolve) => setTimeout(resolve, jitterMs)).then(() =>
          own.vitrina.contacts.optOutOfWhatsApp({ workspaceId: own.workspace.id, phoneE164: phone }),
        ),
        own.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" } })),
      ]);
      const contact = await own.storage.contacts.findByPhone(own.workspace.id, phone);
      const { status, reason } = lead.json.outbound;
      const sent = own.sentMessages.filter((m) => m.to === phone).length;
      if (contact?.whatsappOptedOutAt == null) wrong.push(`${phone}: opt-out lost`);
      else if (cameFirst.has(phone) && (status !== "sent" || sent !== 1))
        wrong.push(`${phone}: registered first, then ${status} (${reason}), ${sent} sent`);
      else if (!cameFirst.has(phone) && (status !== "blocked" || !/opted out/.test(reason) || sent !== 0))
        wrong.push(`${phone}: the opt-out came first, yet ${status} (${reason}), ${sent} sent`);
    }
    try {
      for (let done = 0; done < RACES; done += AT_ONCE) {
        await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => race(newPhone(), (done + i) % 8)));
      }
    } finally {
      await own.close();
    }
    console.info(
      `[${backend}] new phone vs opt-out races: ${RACES}, lead first: ${cameFirst.size}, wrong: ${wrong.length}`,
    );
    expect(wrong).toEqual([]);
  });

  it("welcomes a person once when 100 different leads for their phone arrive at once", async () => {
    const phone = newPhone();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        h.send(sampleLead({ source_lead_id: `burst-${phone}-${i}`, contact: { phone_e164: phone, name: "Ana" } })),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(new Set(results.map((r) => r.json.contact_id)).size).toBe(1);
    const statuses = results.map((r) => r.json.outbound.status);
    console.info(`[${backend}] 100 leads for one phone: ${statuses.filter((s) => s === "sent").length} welcomes sent`);
    expect(statuses.filter((s) => s === "sent")).toHaveLength(1);
    expect(statuses.filter((s) => s === "blocked")).toHaveLength(99);
    const first = results.find((r) => r.json.outbound.status === "sent")!;
    const blocked = results.find((r) => r.json.outbound.status === "blocked")!;
    expect(blocked.json.outbound.reason).toMatch(
      new RegExp(`already got a first message .*lead ${first.json.lead_event_id}`),
    );
    expect(h.sentMessages.filter((m) => m.to === phone)).toHaveLength(1);
    const contactId = first.json.contact_id;
    const conversations = (await h.storage.conversations.listByWorkspace(h.workspace.id)).filter(
      (c) => c.contactId === contactId,
    );
    expect(conversations).toHaveLength(1);
    const started = await h.storage.events.listByWorkspace(h.workspace.id, { type: "conversation.started" });
    expect(started.filter((e) => e.data.contact_id === contactId)).toHaveLength(1);
  });

  it("never files a lead under another phone's contact because their emails match", async () => {
    const [p1, p2] = [newPhone(), newPhone()];
    const email = `shared-${p1.slice(1)}@example.cl`;
    const a = await h.send(sampleLead({ contact: { phone_e164: p1, name: "Ana", email } }));
    const aContact = await h.storage.contacts.get(h.workspace.id, a.json.contact_id);
    const b = await h.send(sampleLead({ contact: { phone_e164: p2, name: "Beto", email: email.toUpperCase() } }));
    expect(b.json.outbound.status).toBe("sent");
    expect(b.json.contact_id).not.toBe(a.json.contact_id);
    const bContact = await h.storage.contacts.get(h.workspace.id, b.json.contact_id);
    expect(bContact).toMatchObject({ phoneE164: p2, name: "Beto", possibleDuplicateOf: a.json.contact_id });
    expect(bContact?.whatsappConsent?.leadEventId).toBe(b.json.lead_event_id);
    // A's contact, consent evidence included, is untouched.
    expect(await h.storage.contacts.get(h.workspace.id, a.json.contact_id)).toEqual(aContact);
    expect(h.sentMessages.filter((m) => m.to === p2).map((m) => m.template?.bodyParameters)).toEqual([["Beto"]]);
    const conversations = await h.storage.conversations.listByWorkspace(h.workspace.id);
    expect(conversations.filter((c) => c.contactId === b.json.contact_id)).toHaveLength(1);
  });
});

describe.each(backends)("contacts.update capability and opt-outs on %s", (backend) => {
  const RACES = RACES_ON[backend];
  it(`never erases an opt-out committed while it changes the contact (${RACES} races)`, async () => {
    const { capabilityHarness } = await import("../../core/test/capabilities/support/harness.js");
    const h = await capabilityHarness({ storage: (await openTestStorage(backend)).storage });
    const f = fixtures();
    let lost = 0;
    let lostTags = 0;
    try {
      async function race(i: number) {
        const { contact } = await h.storage.contacts.insertOrGetByPhone(f.contact(h.workspace.id, { tags: ["lead"] }));
        await Promise.all([
          h.invoke("contacts.update", { contact_id: contact.id, tags: ["lead", `t${i}`] }, `race-${i}`),
          new Promise((resolve) => setTimeout(resolve, i % 4)).then(() =>
            h.vitrina.contacts.optOutOfWhatsApp({ workspaceId: h.workspace.id, phoneE164: contact.phoneE164! }),
          ),
        ]);
        const stored = await h.storage.contacts.get(h.workspace.id, contact.id);
        if (stored?.whatsappOptedOutAt == null) lost++;
        // The other way round: the opt-out must not undo the update either.
        if (JSON.stringify(stored?.tags) !== JSON.stringify(["lead", `t${i}`])) lostTags++;
      }
      for (let done = 0; done < RACES; done += AT_ONCE)
        await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => race(done + i)));
    } finally {
      await h.storage.close();
    }
    console.info(
      `[${backend}] contacts.update vs opt-out races: ${RACES}, opt-outs lost: ${lost}, updates lost: ${lostTags}`,
    );
    expect({ lost, lostTags }).toEqual({ lost: 0, lostTags: 0 });
  });
});
