import type { ContractContext } from "./contract-section.js";
import { describe, expect } from "vitest";
import { it } from "./contract-test.js";
import type { ContactRecord, ConversationRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import type { fixtures } from "./fixtures.js";
import { webhookFixtures } from "./webhook-fixtures.js";

export type Fixtures = ReturnType<typeof fixtures>;
export type Seed = () => Promise<{ workspace: { id: string }; connector: { id: string } }>;

/** Transactions raced per test: on PostgreSQL they run on separate connections at once. */
export const RACERS = 20;

/**
 * What an adapter running transactions concurrently must guarantee, called from
 * `runStorageContract`: targeted writes set only what they name (a value written meanwhile by
 * another transaction survives them), `getForUpdate` serialises read-modify-write on a contact, and
 * the unique rule of one active WhatsApp conversation per contact holds under racing inserts.
 * Adapters that run one transaction at a time pass trivially; on PostgreSQL these are real races.
 */
export function concurrencyContract({ storage, f, seedWorkspace: seed }: ContractContext): void {
  const { consent } = f;
  const conversation = (c: ContactRecord, over: Partial<ConversationRecord> = {}) =>
    f.conversation(c.workspaceId, c.id, over);
  async function newContact(over: Partial<ContactRecord> = {}) {
    const { workspace } = await seed();
    return (await storage().contacts.insertOrGetByPhone(f.contact(workspace.id, over))).contact;
  }

  describe("concurrency: targeted updates", () => {
    it("patch sets only the columns it names and reads back the stored row", async () => {
      const contact = await newContact({
        name: "Ana",
        email: "ana@example.cl",
        tags: ["vip"],
        whatsappConsent: consent("l0"),
      });
      const patched = await storage().contacts.patch(contact.workspaceId, contact.id, { tags: ["nuevo"] }, f.at(100));
      expect(patched).toEqual({ ...contact, tags: ["nuevo"], updatedAt: f.at(100) });
      expect(await storage().contacts.get(contact.workspaceId, contact.id)).toEqual(patched);
      const cleared = await storage().contacts.patch(
        contact.workspaceId,
        contact.id,
        { whatsappConsent: null, email: null },
        f.at(200),
      );
      expect(cleared).toEqual({
        ...contact,
        tags: ["nuevo"],
        email: null,
        whatsappConsent: null,
        updatedAt: f.at(200),
      });
      expect(await storage().contacts.patch(contact.workspaceId, f.id(), { name: "X" }, f.at())).toBeNull();
    });

    it("patch refuses a phone another contact holds with conflict", async () => {
      const first = await newContact();
      const second = (await storage().contacts.insertOrGetByPhone(f.contact(first.workspaceId))).contact;
      await expect(
        storage().contacts.patch(first.workspaceId, second.id, { phoneE164: first.phoneE164 }, f.at()),
      ).rejects.toMatchObject({ code: "conflict" });
      expect(await storage().contacts.get(first.workspaceId, second.id)).toEqual(second);
    });

    it("fillMissing fills only empty fields and optOutOfWhatsApp keeps the first opt-out", async () => {
      const contact = await newContact({ name: "Ana", email: null });
      const filled = await storage().contacts.fillMissing(
        contact.workspaceId,
        contact.id,
        { name: "Otra", email: "ana@example.cl" },
        f.at(10),
      );
      expect(filled).toMatchObject({ name: "Ana", email: "ana@example.cl" });
      const optedOut = await storage().contacts.optOutOfWhatsApp(contact.workspaceId, contact.id, f.at(20));
      expect(optedOut).toEqual({ ...filled, whatsappOptedOutAt: f.at(20), updatedAt: f.at(20) });
      expect(await storage().contacts.optOutOfWhatsApp(contact.workspaceId, contact.id, f.at(30))).toEqual(optedOut);
      expect(await storage().contacts.optOutOfWhatsApp(contact.workspaceId, f.id(), f.at())).toBeNull();
    });

    it("a write that sets one column never clears another written meanwhile", async () => {
      const contacts = await Promise.all(Array.from({ length: RACERS }, () => newContact({ name: null, email: null })));
      // Per contact, three transactions at once, each reading the row first and then writing one thing.
      await Promise.all(
        contacts.flatMap((c) => [
          storage().transaction(async (tx) => {
            await tx.contacts.get(c.workspaceId, c.id);
            await tx.contacts.patch(c.workspaceId, c.id, { whatsappConsent: consent(c.id) }, f.at(1));
          }),
          storage().transaction(async (tx) => {
            await tx.contacts.get(c.workspaceId, c.id);
            await tx.contacts.optOutOfWhatsApp(c.workspaceId, c.id, f.at(2));
          }),
          storage().transaction(async (tx) => {
            await tx.contacts.get(c.workspaceId, c.id);
            await tx.contacts.fillMissing(c.workspaceId, c.id, { name: "Ana", email: "ana@example.cl" }, f.at(3));
          }),
        ]),
      );
      for (const c of contacts) {
        expect(await storage().contacts.get(c.workspaceId, c.id)).toMatchObject({
          name: "Ana",
          email: "ana@example.cl",
          whatsappOptedOutAt: f.at(2),
          whatsappConsent: consent(c.id),
        });
      }
    });

    it("getForUpdate serialises read-modify-write: no concurrent tag is lost", async () => {
      const contact = await newContact({ tags: [] });
      await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          storage().transaction(async (tx) => {
            const locked = await tx.contacts.getForUpdate(contact.workspaceId, contact.id);
            await tx.contacts.patch(contact.workspaceId, contact.id, { tags: [...locked!.tags, `t${i}`] }, f.at(i));
          }),
        ),
      );
      const stored = await storage().contacts.get(contact.workspaceId, contact.id);
      expect(stored?.tags.slice().sort()).toEqual(Array.from({ length: RACERS }, (_, i) => `t${i}`).sort());
      expect(await storage().contacts.getForUpdate(contact.workspaceId, f.id())).toBeNull();
    });
  });

  describe("concurrency: one active WhatsApp conversation per contact", () => {
    it("lets exactly one of many racing inserts through; the others fail with conflict", async () => {
      const contact = await newContact();
      const results = await Promise.allSettled(
        Array.from({ length: RACERS }, () => storage().conversations.insert(conversation(contact))),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "conflict" });
      const active = await storage().conversations.findActive(contact.workspaceId, contact.id, "whatsapp");
      expect(active).toMatchObject({ contactId: contact.id, status: "open" });
      // Closed threads and other channels are not limited; reopening a second one is refused.
      const closed = conversation(contact, { status: "closed" });
      await storage().conversations.insert(closed);
      await storage().conversations.insert(conversation(contact, { channel: "web" }));
      await expect(storage().conversations.update({ ...closed, status: "open" })).rejects.toMatchObject({
        code: "conflict",
      });
      expect(await storage().conversations.findActive(contact.workspaceId, contact.id, "whatsapp")).toEqual(active);
    });

    it("touch sets only updatedAt, so an escalation written meanwhile survives", async () => {
      const contact = await newContact();
      const open = conversation(contact);
      await storage().conversations.insert(open);
      const escalated = { ...open, status: "pending" as const, escalatedAt: f.at(50), updatedAt: f.at(50) };
      await Promise.all([
        storage().conversations.update(escalated),
        storage().conversations.touch(open.workspaceId, open.id, f.at(60)),
      ]);
      expect(await storage().conversations.get(open.workspaceId, open.id)).toMatchObject({
        status: "pending",
        escalatedAt: f.at(50),
      });
      expect(await storage().conversations.touch(open.workspaceId, f.id(), f.at())).toBe(false);
    });

    it("touch leaves a closed conversation as it is and answers false", async () => {
      const contact = await newContact();
      const closed = { ...conversation(contact), status: "closed" as const };
      await storage().conversations.insert(closed);
      expect(await storage().conversations.touch(closed.workspaceId, closed.id, f.at(60))).toBe(false);
      expect(await storage().conversations.get(closed.workspaceId, closed.id)).toEqual(closed);
    });

    it("escalate lets exactly one of many racing escalations through and keeps the first timestamp", async () => {
      const contact = await newContact();
      const open = conversation(contact);
      await storage().conversations.insert(open);
      const results = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          storage().conversations.escalate(open.workspaceId, open.id, f.at(100 + i)),
        ),
      );
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(await storage().conversations.get(open.workspaceId, open.id)).toEqual(winners[0]);
      expect(winners[0]).toMatchObject({ status: "pending", escalatedAt: winners[0]!.updatedAt });
      expect(await storage().conversations.escalate(open.workspaceId, f.id(), f.at())).toBeNull();
    });

    it("quotes.accept lets exactly one of many racing acceptances through and keeps its timestamp", async () => {
      const contact = await newContact();
      const quote = webhookFixtures().quote(contact.workspaceId, contact.id);
      await storage().quotes.insert(quote);
      const results = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => storage().quotes.accept(quote.workspaceId, quote.id, f.at(100 + i))),
      );
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(winners[0]).toEqual({ ...quote, status: "accepted", acceptedAt: winners[0]!.acceptedAt });
      expect(await storage().quotes.get(quote.workspaceId, quote.id)).toEqual(winners[0]);
      expect(await storage().quotes.accept(quote.workspaceId, f.id(), f.at())).toBeNull();
      expect(await storage().quotes.accept(f.id(), quote.id, f.at())).toBeNull();
    });
  });

  describe("concurrency: what sending relies on", () => {
    it("findLatestLiveByContact returns the newest queued or sent first message since a time", async () => {
      const { workspace, connector } = await seed();
      const { contact } = await storage().contacts.insertOrGetByPhone(f.contact(workspace.id));
      const message = async (status: "queued" | "sent" | "blocked" | "failed", createdAt: string) => {
        const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
        await storage().leads.insertIfNew(lead);
        const outbound = f.outbound(workspace.id, lead.id, contact.id, { status, createdAt, updatedAt: createdAt });
        await storage().outbound.insert(outbound);
        return outbound;
      };
      await message("sent", f.at(0));
      const queued = await message("queued", f.at(1000));
      await message("blocked", f.at(2000));
      await message("failed", f.at(3000));
      expect(await storage().outbound.findLatestLiveByContact(workspace.id, contact.id, f.at(500))).toEqual(queued);
      expect(await storage().outbound.findLatestLiveByContact(workspace.id, contact.id, f.at(1500))).toBeNull();
      expect(await storage().outbound.findLatestLiveByContact(f.id(), contact.id, f.at(-1))).toBeNull();
    });

    it("deletes a message recorded before a refused send", async () => {
      const contact = await newContact();
      const thread = conversation(contact, { channel: "web" });
      await storage().conversations.insert(thread);
      const message = {
        id: f.id(),
        workspaceId: contact.workspaceId,
        conversationId: thread.id,
        sender: "human",
        content: "hola",
        createdAt: f.at(),
      };
      await storage().messages.insert(message);
      expect(await storage().messages.delete(f.id(), message.id)).toBe(false);
      expect(await storage().messages.delete(contact.workspaceId, message.id)).toBe(true);
      expect(await storage().messages.listByConversation(thread.id)).toEqual([]);
    });
  });
}
