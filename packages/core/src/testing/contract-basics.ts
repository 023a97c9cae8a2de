import { expect } from "vitest";
import { it } from "./contract-test.js";
import type { ContractSection } from "./contract-section.js";

/** Every repository's plain reads and writes, and what a transaction guarantees. */
export const basicsSection: ContractSection = {
  name: "basics",
  run({ storage, create, f, seedWorkspace }) {
    it("answers ping while open and refuses it once closed", async () => {
      await expect(storage().ping()).resolves.toBeUndefined();
      // A storage of its own: closing the shared one would end the other tests.
      const closing = await create();
      await closing.ping();
      await closing.close();
      await expect(closing.ping()).rejects.toThrow();
    });

    it("stores workspaces and members and reads them back", async () => {
      const workspace = f.workspace();
      await storage().workspaces.insert(workspace);
      expect(await storage().workspaces.get(workspace.id)).toEqual(workspace);
      expect(await storage().workspaces.get(f.id())).toBeNull();
      await storage().workspaces.upsertMember({ workspaceId: workspace.id, userId: "u1", role: "member" });
      await storage().workspaces.upsertMember({ workspaceId: workspace.id, userId: "u1", role: "admin" });
      expect(await storage().workspaces.getMember(workspace.id, "u1")).toEqual({
        workspaceId: workspace.id,
        userId: "u1",
        role: "admin",
        sessionEpoch: expect.any(String),
      });
      expect(await storage().workspaces.getMember(workspace.id, "nobody")).toBeNull();
      const later = f.workspace({ createdAt: f.at(1000) });
      await storage().workspaces.insert(later);
      await storage().workspaces.upsertMember({ workspaceId: later.id, userId: "u1", role: "owner" });
      expect(await storage().workspaces.listForUser("u1")).toEqual([
        { ...workspace, role: "admin" },
        { ...later, role: "owner" },
      ]);
      expect(await storage().workspaces.listForUser("nobody")).toEqual([]);
    });

    it("stores connectors, refuses a duplicate system id, rotates secrets", async () => {
      const { workspace, connector } = await seedWorkspace();
      expect(await storage().connectors.get(connector.id)).toEqual(connector);
      await expect(
        storage().connectors.insert(f.connector(workspace.id, { systemId: connector.systemId })),
      ).rejects.toMatchObject({ code: "conflict" });
      const second = f.connector(workspace.id, { createdAt: f.at(1000) });
      await storage().connectors.insert(second);
      expect((await storage().connectors.listByWorkspace(workspace.id)).map((c) => c.id)).toEqual([
        connector.id,
        second.id,
      ]);
      const rotated = await storage().connectors.updateSecret(connector.id, "v1.new.sealed", f.at(5000));
      expect(rotated).toEqual({ ...connector, sealedSecret: "v1.new.sealed", secretVersion: 2, rotatedAt: f.at(5000) });
      expect(await storage().connectors.get(connector.id)).toEqual(rotated);
      expect(await storage().connectors.updateSecret(f.id(), "x", f.at())).toBeNull();
    });

    it("keeps one contact per phone per workspace and finds by phone and email", async () => {
      const { workspace } = await seedWorkspace();
      const contact = f.contact(workspace.id, { email: "Maria@Example.cl", tags: ["vip"], score: 0.5, ltv: 1200 });
      expect(await storage().contacts.insertOrGetByPhone(contact)).toEqual({ contact, created: true });
      const again = await storage().contacts.insertOrGetByPhone({
        ...f.contact(workspace.id),
        phoneE164: contact.phoneE164,
      });
      expect(again).toEqual({ contact, created: false });
      expect(await storage().contacts.get(workspace.id, contact.id)).toEqual(contact);
      expect(await storage().contacts.get(f.id(), contact.id)).toBeNull();
      expect(await storage().contacts.findByPhone(workspace.id, contact.phoneE164!)).toEqual(contact);
      expect(await storage().contacts.findByEmail(workspace.id, "maria@example.cl")).toEqual(contact);
      // The same phone in another workspace is another contact.
      const other = await seedWorkspace();
      const elsewhere = await storage().contacts.insertOrGetByPhone(
        f.contact(other.workspace.id, { phoneE164: contact.phoneE164 }),
      );
      expect(elsewhere.created).toBe(true);
    });

    it("updates a contact in full and reports a missing one", async () => {
      const { workspace } = await seedWorkspace();
      const { contact } = await storage().contacts.insertOrGetByPhone(f.contact(workspace.id));
      const consent = {
        granted: true,
        timestamp: f.at(),
        source: "form",
        purpose: "sales",
        connectorId: f.id(),
        leadEventId: f.id(),
        recordedAt: f.at(10),
      };
      const updated = {
        ...contact,
        email: "a@b.cl",
        whatsappConsent: consent,
        whatsappOptedOutAt: f.at(20),
        updatedAt: f.at(30),
      };
      expect(await storage().contacts.update(updated)).toBe(true);
      expect(await storage().contacts.get(workspace.id, contact.id)).toEqual(updated);
      expect(await storage().contacts.update(f.contact(workspace.id))).toBe(false);
    });

    it("inserts a lead once per (connector, source_lead_id) and reads it back intact", async () => {
      const { workspace, connector } = await seedWorkspace();
      const lead = f.lead(workspace.id, connector.id);
      expect(await storage().leads.insertIfNew(lead)).toBe(true);
      expect(
        await storage().leads.insertIfNew({ ...f.lead(workspace.id, connector.id), sourceLeadId: lead.sourceLeadId }),
      ).toBe(false);
      expect(await storage().leads.findBySourceId(connector.id, lead.sourceLeadId)).toEqual(lead);
      expect(await storage().leads.get(lead.id)).toEqual(lead);
      expect(await storage().leads.countByWorkspace(workspace.id)).toBe(1);
      // Same source id from another connector is another lead.
      const otherConnector = f.connector(workspace.id);
      await storage().connectors.insert(otherConnector);
      expect(
        await storage().leads.insertIfNew(f.lead(workspace.id, otherConnector.id, { sourceLeadId: lead.sourceLeadId })),
      ).toBe(true);
      expect(await storage().leads.countByWorkspace(workspace.id)).toBe(2);
    });

    it("admits exactly one of many concurrent transactions inserting the same lead", async () => {
      const { workspace, connector } = await seedWorkspace();
      const sourceLeadId = `crm-${f.id()}`;
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          storage().transaction(async (tx) =>
            tx.leads.insertIfNew(f.lead(workspace.id, connector.id, { sourceLeadId })),
          ),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await storage().leads.countByWorkspace(workspace.id)).toBe(1);
    });

    it("commits every write of a transaction together", async () => {
      const { workspace, connector } = await seedWorkspace();
      const lead = f.lead(workspace.id, connector.id);
      const contact = f.contact(workspace.id);
      await storage().transaction(async (tx) => {
        await tx.contacts.insertOrGetByPhone(contact);
        await tx.leads.insertIfNew(lead);
        await tx.outbound.insert(f.outbound(workspace.id, lead.id, contact.id));
      });
      expect(await storage().contacts.get(workspace.id, contact.id)).toEqual(contact);
      expect(await storage().leads.get(lead.id)).toEqual(lead);
      expect((await storage().outbound.findByLeadEvent(lead.id))?.contactId).toBe(contact.id);
    });

    it("rolls back every write of a transaction that throws", async () => {
      const { workspace, connector } = await seedWorkspace();
      const lead = f.lead(workspace.id, connector.id);
      const contact = f.contact(workspace.id);
      const boom = new Error("boom");
      await expect(
        storage().transaction(async (tx) => {
          await tx.contacts.insertOrGetByPhone(contact);
          await tx.leads.insertIfNew(lead);
          await tx.connectors.updateSecret(connector.id, "v1.rolled.back", f.at(1));
          await tx.events.append({
            id: f.id(),
            workspaceId: workspace.id,
            type: "conversation.started",
            created: f.at(),
            data: {},
          });
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await storage().contacts.get(workspace.id, contact.id)).toBeNull();
      expect(await storage().leads.get(lead.id)).toBeNull();
      expect(await storage().connectors.get(connector.id)).toEqual(connector);
      expect(await storage().events.listByWorkspace(workspace.id)).toEqual([]);
      // The storage is still usable after a rollback (PGlite poisons a connection otherwise).
      expect(await storage().leads.insertIfNew(lead)).toBe(true);
    });

    it("stores opportunities with their qualification evidence", async () => {
      const { workspace, connector } = await seedWorkspace();
      const { contact } = await storage().contacts.insertOrGetByPhone(f.contact(workspace.id));
      const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
      await storage().leads.insertIfNew(lead);
      const opportunity = f.opportunity(workspace.id, contact.id, lead.id);
      await storage().opportunities.insert(opportunity);
      expect(await storage().opportunities.get(opportunity.id)).toEqual(opportunity);
      expect(await storage().opportunities.listByContact(contact.id)).toEqual([opportunity]);
    });

    it("stores outbound message records", async () => {
      const { workspace, connector } = await seedWorkspace();
      const { contact } = await storage().contacts.insertOrGetByPhone(f.contact(workspace.id));
      const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
      await storage().leads.insertIfNew(lead);
      const message = f.outbound(workspace.id, lead.id, contact.id);
      await storage().outbound.insert(message);
      expect(await storage().outbound.findByLeadEvent(lead.id)).toEqual(message);
      expect(await storage().outbound.listByWorkspace(workspace.id)).toEqual([message]);
      expect(await storage().outbound.findByLeadEvent(f.id())).toBeNull();
    });

    it("appends events and lists them oldest first, filtered by type", async () => {
      const { workspace } = await seedWorkspace();
      const later = {
        id: f.id(),
        workspaceId: workspace.id,
        type: "quote.created",
        created: f.at(2000),
        data: { quote_id: "q1", total: 119 },
      };
      const earlier = {
        id: f.id(),
        workspaceId: workspace.id,
        type: "conversation.started",
        created: f.at(1000),
        data: { nested: { ok: true } },
      };
      await storage().events.append(later);
      await storage().events.append(earlier);
      expect(await storage().events.listByWorkspace(workspace.id)).toEqual([earlier, later]);
      expect(await storage().events.listByWorkspace(workspace.id, { type: "quote.created" })).toEqual([later]);
    });

    it("stores conversations, lists them by status newest first, and their messages newest first", async () => {
      const { workspace } = await seedWorkspace();
      const { contact } = await storage().contacts.insertOrGetByPhone(f.contact(workspace.id));
      // One contact may have many threads, but at most one active on WhatsApp (see the concurrency section).
      const conversation = (status: "open" | "pending" | "closed", updated: number, channel = "whatsapp") =>
        f.conversation(workspace.id, contact.id, { channel, status, updatedAt: f.at(updated) });
      const older = conversation("open", 1000);
      const newer = conversation("open", 2000, "web");
      const closed = conversation("closed", 3000);
      for (const c of [older, newer, closed]) await storage().conversations.insert(c);
      expect(await storage().conversations.get(workspace.id, older.id)).toEqual(older);
      expect(await storage().conversations.get(f.id(), older.id)).toBeNull();
      expect(await storage().conversations.listByWorkspace(workspace.id, { status: "open" })).toEqual([newer, older]);
      expect(await storage().conversations.listByWorkspace(workspace.id, { limit: 1 })).toEqual([closed]);
      const escalated = { ...older, status: "pending" as const, escalatedAt: f.at(4000), updatedAt: f.at(4000) };
      expect(await storage().conversations.update(escalated)).toBe(true);
      expect(await storage().conversations.get(workspace.id, older.id)).toEqual(escalated);

      const message = (offset: number) => ({
        id: f.id(),
        workspaceId: workspace.id,
        conversationId: older.id,
        sender: "contact",
        content: `hola ${offset} 👋`,
        createdAt: f.at(offset),
      });
      const [m1, m2, m3] = [message(1), message(2), message(3)];
      for (const m of [m2, m1, m3]) await storage().messages.insert(m);
      expect(await storage().messages.listByConversation(older.id)).toEqual([m3, m2, m1]);
      expect(await storage().messages.listByConversation(older.id, { limit: 2 })).toEqual([m3, m2]);
      expect(await storage().messages.listByConversation(older.id, { limit: 0 })).toEqual([]);
    });
  },
};
