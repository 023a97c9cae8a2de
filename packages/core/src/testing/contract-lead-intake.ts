import type { ContractContext } from "./contract-section.js";
import { describe, expect } from "vitest";
import { it } from "./contract-test.js";
import type { ContactRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import { RACERS, type Fixtures, type Seed } from "./contract-concurrency.js";

/**
 * Lead intake's one-step storage calls, called from `runStorageContract`: each does what several
 * calls did before, in one round trip on PostgreSQL, and must keep every guarantee they gave:
 * find-or-create by phone under concurrency, fill-never-overwrite, all-or-nothing registration,
 * and a claim that happens at most once and never for an opted-out contact or one whose WhatsApp
 * consent is withdrawn.
 */
export function leadIntakeContract({ storage, f, seedWorkspace: seed }: ContractContext): void {
  const { consent } = f;
  /** A lead's contact candidate, as lead intake builds it. */
  const candidate = (workspaceId: string, over: Partial<ContactRecord> = {}) =>
    f.contact(workspaceId, { createdAt: f.at(60_000), updatedAt: f.at(60_000), ...over });

  describe("lead intake: one-step storage calls", () => {
    it("getWithWorkspace reads a connector with its workspace, null for an unknown id", async () => {
      const { workspace, connector } = await seed();
      const found = await storage().connectors.getWithWorkspace(connector.id);
      expect(found).toEqual({
        connector: await storage().connectors.get(connector.id),
        workspace: await storage().workspaces.get(workspace.id),
      });
      expect(await storage().connectors.getWithWorkspace(f.id())).toBeNull();
    });

    it("resolveForLead creates a new phone's contact, flagged as a possible duplicate of the oldest same email", async () => {
      const { workspace } = await seed();
      const older = f.contact(workspace.id, { email: "Ana@Example.cl", createdAt: f.at(0) });
      const newer = f.contact(workspace.id, { email: "ana@example.cl", createdAt: f.at(1000) });
      await storage().contacts.insertOrGetByPhone(newer);
      await storage().contacts.insertOrGetByPhone(older);
      const fresh = candidate(workspace.id, { email: "ANA@example.cl", whatsappConsent: consent("l1") });
      const { contact, created } = await storage().contacts.resolveForLead(fresh);
      expect(created).toBe(true);
      expect(contact).toEqual({ ...fresh, possibleDuplicateOf: older.id });
      expect(await storage().contacts.get(workspace.id, fresh.id)).toEqual(contact);
      const alone = candidate(workspace.id, { email: "nadie@example.cl" });
      expect((await storage().contacts.resolveForLead(alone)).contact).toEqual(alone);
    });

    it("resolveForLead on a known phone fills what is missing, never overwrites, keeps an opt-out", async () => {
      const { workspace } = await seed();
      const stored = f.contact(workspace.id, { name: null, email: "old@example.cl", whatsappConsent: consent("l0") });
      await storage().contacts.insertOrGetByPhone(stored);
      await storage().contacts.optOutOfWhatsApp(workspace.id, stored.id, f.at(10));
      const same = { phoneE164: stored.phoneE164 };
      const withoutConsent = await storage().contacts.resolveForLead(
        candidate(workspace.id, { ...same, name: "Ana", email: "new@example.cl" }),
      );
      expect(withoutConsent.created).toBe(false);
      expect(withoutConsent.contact).toMatchObject({
        id: stored.id,
        name: "Ana",
        email: "old@example.cl",
        whatsappConsent: consent("l0"),
        whatsappOptedOutAt: f.at(10),
        updatedAt: f.at(60_000),
      });
      const unchanged = await storage().contacts.resolveForLead(
        candidate(workspace.id, { ...same, name: "Otra", updatedAt: f.at(90_000) }),
      );
      // `created` stays false when nothing changes too: lead intake skips the one-welcome look-up
      // only for a contact the call created.
      expect(unchanged.created).toBe(false);
      expect(unchanged.contact.updatedAt).toBe(f.at(60_000));
      expect(unchanged.contact.name).toBe("Ana");
      const withConsent = await storage().contacts.resolveForLead(
        candidate(workspace.id, { ...same, whatsappConsent: consent("l2"), updatedAt: f.at(120_000) }),
      );
      expect(withConsent.created).toBe(false);
      expect(withConsent.contact).toMatchObject({ whatsappConsent: consent("l2"), updatedAt: f.at(120_000) });
      expect(await storage().contacts.get(workspace.id, stored.id)).toEqual(withConsent.contact);
    });

    it("resolveForLead racing for one new phone creates exactly one contact", async () => {
      const { workspace } = await seed();
      const phoneE164 = f.contact(workspace.id).phoneE164;
      const results = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          storage().transaction((tx) =>
            tx.contacts.resolveForLead(candidate(workspace.id, { phoneE164, whatsappConsent: consent(`l${i}`) })),
          ),
        ),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.contact.id)).size).toBe(1);
    });

    it("registerIfNew writes the lead, its opportunity and outbound record together, and nothing for a duplicate", async () => {
      const { workspace, connector } = await seed();
      const { contact } = await storage().contacts.insertOrGetByPhone(f.contact(workspace.id));
      const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
      const opportunity = f.opportunity(workspace.id, contact.id, lead.id, { id: lead.opportunityId });
      const outbound = f.outbound(workspace.id, lead.id, contact.id, { status: "blocked", reason: "no consent" });
      expect(await storage().leads.registerIfNew(lead, opportunity, outbound)).toBe(true);
      expect(await storage().leads.get(lead.id)).toEqual(lead);
      expect(await storage().opportunities.get(opportunity.id)).toEqual(opportunity);
      expect(await storage().outbound.findByLeadEvent(lead.id)).toEqual(outbound);

      const again = { ...lead, id: f.id(), opportunityId: f.id() };
      const opportunity2 = f.opportunity(workspace.id, contact.id, again.id, { id: again.opportunityId });
      const outbound2 = f.outbound(workspace.id, again.id, contact.id);
      expect(await storage().leads.registerIfNew(again, opportunity2, outbound2)).toBe(false);
      expect(await storage().leads.get(again.id)).toBeNull();
      expect(await storage().opportunities.get(opportunity2.id)).toBeNull();
      expect(await storage().outbound.findByLeadEvent(again.id)).toBeNull();
    });

    /** A new person's lead records for registerNewPerson: the contact, the lead and what hangs off it. */
    const newPerson = (workspaceId: string, connectorId: string, over: Partial<ContactRecord> = {}) => {
      const contact = candidate(workspaceId, over);
      const lead = f.lead(workspaceId, connectorId, { contactId: contact.id });
      const opportunity = f.opportunity(workspaceId, contact.id, lead.id, { id: lead.opportunityId });
      const outbound = f.outbound(workspaceId, lead.id, contact.id);
      return { contact, lead, opportunity, outbound };
    };
    /** Registers `p` as signed with `secretVersion` (every seeded connector starts at 1). */
    const registerNewPerson = (p: ReturnType<typeof newPerson>, secretVersion = 1) =>
      storage().leads.registerNewPerson(p.contact, p.lead, p.opportunity, p.outbound, secretVersion);
    /** A first message's hand-over at `at`, as lead intake writes it with a new person's registration. */
    const handOver = (at: number) => ({
      status: "queued" as const,
      reason: "handed",
      handedToProviderAt: f.at(at),
      updatedAt: f.at(at),
    });
    /** Asserts that none of `p`'s records exists. */
    const expectNothingOf = async (p: ReturnType<typeof newPerson>) => {
      expect(await storage().contacts.get(p.contact.workspaceId, p.contact.id)).toBeNull();
      expect(await storage().leads.get(p.lead.id)).toBeNull();
      expect(await storage().opportunities.get(p.opportunity.id)).toBeNull();
      expect(await storage().outbound.findByLeadEvent(p.lead.id)).toBeNull();
    };

    it("registerNewPerson writes a new phone's contact, lead, opportunity and outbound record, the contact flagged by email", async () => {
      const { workspace, connector } = await seed();
      const older = f.contact(workspace.id, { email: "bea@example.cl", createdAt: f.at(0) });
      await storage().contacts.insertOrGetByPhone(older);
      const person = newPerson(workspace.id, connector.id, { email: "BEA@example.cl", whatsappConsent: consent("l1") });
      expect(await registerNewPerson(person)).toBe(true);
      expect(await storage().contacts.get(workspace.id, person.contact.id)).toEqual({
        ...person.contact,
        possibleDuplicateOf: older.id,
      });
      expect(await storage().leads.get(person.lead.id)).toEqual(person.lead);
      expect(await storage().opportunities.get(person.opportunity.id)).toEqual(person.opportunity);
      expect(await storage().outbound.findByLeadEvent(person.lead.id)).toEqual(person.outbound);
    });

    it("registerNewPerson writes nothing for a phone that has a contact, or for a resend under a new phone", async () => {
      const { workspace, connector } = await seed();
      const { contact: known } = await storage().contacts.insertOrGetByPhone(f.contact(workspace.id, { name: null }));
      const samePhone = newPerson(workspace.id, connector.id, { phoneE164: known.phoneE164, name: "Ana" });
      expect(await registerNewPerson(samePhone)).toBe(false);
      await expectNothingOf(samePhone);
      expect(await storage().contacts.get(workspace.id, known.id)).toEqual(known);

      const first = newPerson(workspace.id, connector.id);
      expect(await registerNewPerson(first)).toBe(true);
      const resend = newPerson(workspace.id, connector.id);
      resend.lead = { ...resend.lead, sourceLeadId: first.lead.sourceLeadId };
      expect(await registerNewPerson(resend)).toBe(false);
      await expectNothingOf(resend);
    });

    it("registerNewPerson writes nothing when the connector's secret is no longer the version that verified the lead", async () => {
      const { workspace, connector } = await seed();
      expect((await storage().connectors.get(connector.id))?.secretVersion).toBe(1);
      const stale = newPerson(workspace.id, connector.id);
      expect(await registerNewPerson(stale, 2)).toBe(false);
      await expectNothingOf(stale);
      await storage().connectors.updateSecret(connector.id, "v1.rotated.sealed", f.at(5000));
      const signedBeforeRotation = newPerson(workspace.id, connector.id);
      expect(await registerNewPerson(signedBeforeRotation, 1)).toBe(false);
      await expectNothingOf(signedBeforeRotation);
      const signedAfter = newPerson(workspace.id, connector.id);
      expect(await registerNewPerson(signedAfter, 2)).toBe(true);
      expect(await storage().leads.get(signedAfter.lead.id)).toEqual(signedAfter.lead);
    });

    it("registerNewPerson racing for one new phone registers exactly one lead, and for one lead exactly one contact", async () => {
      const { workspace, connector } = await seed();
      const phoneE164 = f.contact(workspace.id).phoneE164;
      const samePhone = Array.from({ length: RACERS }, () => newPerson(workspace.id, connector.id, { phoneE164 }));
      const phoneResults = await Promise.all(samePhone.map(registerNewPerson));
      expect(phoneResults.filter(Boolean)).toHaveLength(1);
      for (const [i, person] of samePhone.entries()) if (!phoneResults[i]) await expectNothingOf(person);

      const sourceLeadId = f.lead(workspace.id, connector.id).sourceLeadId;
      const sameLead = Array.from({ length: RACERS }, () => {
        const person = newPerson(workspace.id, connector.id);
        return { ...person, lead: { ...person.lead, sourceLeadId } };
      });
      const leadResults = await Promise.all(sameLead.map(registerNewPerson));
      expect(leadResults.filter(Boolean)).toHaveLength(1);
      for (const [i, person] of sameLead.entries()) if (!leadResults[i]) await expectNothingOf(person);
    });

    it("registerNewPerson writes a first message handed over as given: its claim, which no later claim repeats", async () => {
      const { workspace, connector } = await seed();
      const person = newPerson(workspace.id, connector.id, { whatsappConsent: consent("l1") });
      const handedOver = { ...person.outbound, ...handOver(11) };
      expect(await registerNewPerson({ ...person, outbound: handedOver })).toBe(true);
      expect(await storage().outbound.findByLeadEvent(person.lead.id)).toEqual(handedOver);
      const again = await storage().outbound.claimForSending(handedOver, person.contact.phoneE164!, handOver(12));
      expect(again.claimed).toBeNull();
      expect(await storage().outbound.claimUnsent(handedOver.id, handOver(13))).toBeNull();

      // Nothing registered: the phone's existing contact and its handed-over message are untouched.
      const samePhone = newPerson(workspace.id, connector.id, { phoneE164: person.contact.phoneE164 });
      expect(await registerNewPerson({ ...samePhone, outbound: { ...samePhone.outbound, ...handOver(14) } })).toBe(
        false,
      );
      await expectNothingOf(samePhone);
      expect(await storage().outbound.findByLeadEvent(person.lead.id)).toEqual(handedOver);
    });

    it("registerNewPerson with handed-over messages racing for one new phone writes exactly one", async () => {
      const { workspace, connector } = await seed();
      const phoneE164 = f.contact(workspace.id).phoneE164!;
      const racers = Array.from({ length: RACERS }, (_, i) => {
        const p = newPerson(workspace.id, connector.id, { phoneE164 });
        return { ...p, outbound: { ...p.outbound, ...handOver(i) } };
      });
      const results = await Promise.all(racers.map((p) => registerNewPerson(p)));
      const winners = results.flatMap((registered, i) => (registered ? [i] : []));
      expect(winners).toHaveLength(1);
      for (const [i, racer] of racers.entries()) if (i !== winners[0]) await expectNothingOf(racer);
      const winner = racers[winners[0]!]!;
      expect(await storage().outbound.findByLeadEvent(winner.lead.id)).toEqual(winner.outbound);
    });

    it("claimForSending hands a message over once, and never for an opted-out or re-numbered contact", async () => {
      const { workspace, connector } = await seed();
      const register = async (contact: ContactRecord) => {
        const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
        const opportunity = f.opportunity(workspace.id, contact.id, lead.id, { id: lead.opportunityId });
        const outbound = f.outbound(workspace.id, lead.id, contact.id);
        await storage().leads.registerIfNew(lead, opportunity, outbound);
        return outbound;
      };
      const change = { status: "queued" as const, reason: "handed", handedToProviderAt: f.at(7), updatedAt: f.at(7) };
      const { contact } = await storage().contacts.insertOrGetByPhone(
        f.contact(workspace.id, { whatsappConsent: consent("l0") }),
      );
      const message = await register(contact);

      const wrongPhone = await storage().outbound.claimForSending(message, "+56900000000", change);
      expect(wrongPhone).toEqual({ contact, claimed: null });
      const first = await storage().outbound.claimForSending(message, contact.phoneE164!, change);
      expect(first).toEqual({ contact, claimed: { ...message, ...change } });
      expect(await storage().outbound.findByLeadEvent(message.leadEventId)).toEqual({ ...message, ...change });
      expect((await storage().outbound.claimForSending(message, contact.phoneE164!, change)).claimed).toBeNull();

      const optedOut = await register(contact);
      await storage().contacts.optOutOfWhatsApp(workspace.id, contact.id, f.at(9));
      const refused = await storage().outbound.claimForSending(optedOut, contact.phoneE164!, change);
      expect(refused.claimed).toBeNull();
      expect(refused.contact?.whatsappOptedOutAt).toBe(f.at(9));
      expect(await storage().outbound.findByLeadEvent(optedOut.leadEventId)).toEqual(optedOut);

      const elsewhere = { ...message, workspaceId: f.id() };
      expect(await storage().outbound.claimForSending(elsewhere, contact.phoneE164!, change)).toEqual({
        contact: null,
        claimed: null,
      });
    });

    it("claimForSending never hands a message over for a contact whose consent was withdrawn or is missing", async () => {
      const { workspace, connector } = await seed();
      const change = { status: "queued" as const, reason: "handed", handedToProviderAt: f.at(7), updatedAt: f.at(7) };
      const queuedFor = async (whatsappConsent: ContactRecord["whatsappConsent"]) => {
        const { contact } = await storage().contacts.insertOrGetByPhone(f.contact(workspace.id, { whatsappConsent }));
        const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
        const outbound = f.outbound(workspace.id, lead.id, contact.id);
        const opportunity = f.opportunity(workspace.id, contact.id, lead.id, { id: lead.opportunityId });
        await storage().leads.registerIfNew(lead, opportunity, outbound);
        return { contact, outbound };
      };
      // Consent granted when the message was queued, then a later lead recorded `granted: false`.
      const withdrawn = await queuedFor(consent("l0"));
      const later = candidate(workspace.id, {
        phoneE164: withdrawn.contact.phoneE164,
        whatsappConsent: { ...consent("l1"), granted: false },
      });
      const { contact: afterLater } = await storage().contacts.resolveForLead(later);
      expect(afterLater.whatsappConsent?.granted).toBe(false);
      const refused = await storage().outbound.claimForSending(
        withdrawn.outbound,
        withdrawn.contact.phoneE164!,
        change,
      );
      // The contact comes back as read under the lock, so the caller can say why it was refused.
      expect(refused).toEqual({ contact: afterLater, claimed: null });
      expect(await storage().outbound.findByLeadEvent(withdrawn.outbound.leadEventId)).toEqual(withdrawn.outbound);

      // No consent evidence at all (as after a phone change clears it): nothing to send on either.
      const none = await queuedFor(null);
      const unconsented = await storage().outbound.claimForSending(none.outbound, none.contact.phoneE164!, change);
      expect(unconsented).toEqual({ contact: none.contact, claimed: null });

      // Granted again by a still later lead: the message may go out.
      const regranted = candidate(workspace.id, {
        phoneE164: withdrawn.contact.phoneE164,
        whatsappConsent: consent("l2"),
        updatedAt: f.at(90_000),
      });
      await storage().contacts.resolveForLead(regranted);
      const claimed = await storage().outbound.claimForSending(
        withdrawn.outbound,
        withdrawn.contact.phoneE164!,
        change,
      );
      expect(claimed.claimed).toEqual({ ...withdrawn.outbound, ...change });
    });

    it("claimForSending racing for one message lets exactly one claim through", async () => {
      const { workspace, connector } = await seed();
      const { contact } = await storage().contacts.insertOrGetByPhone(
        f.contact(workspace.id, { whatsappConsent: consent("l0") }),
      );
      const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
      const message = f.outbound(workspace.id, lead.id, contact.id);
      await storage().leads.registerIfNew(
        lead,
        f.opportunity(workspace.id, contact.id, lead.id, { id: lead.opportunityId }),
        message,
      );
      const results = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          storage().outbound.claimForSending(message, contact.phoneE164!, {
            status: "queued",
            reason: `racer ${i}`,
            handedToProviderAt: f.at(i),
            updatedAt: f.at(i),
          }),
        ),
      );
      expect(results.filter((r) => r.claimed !== null)).toHaveLength(1);
    });
  });
}
