import type { ContractContext } from "./contract-section.js";
import { describe, expect } from "vitest";
import { it } from "./contract-test.js";
import type { ContactRecord, ConversationRecord } from "../ports/records.js";
import type { FirstMessageOutcome, FirstMessageThread, Storage } from "../ports/storage.js";
import { RACERS, type Fixtures, type Seed } from "./contract-concurrency.js";
import { webhookFixtures } from "./webhook-fixtures.js";

/**
 * `outbound.recordOutcome`, called from `runStorageContract`: a first message's outcome, and for
 * one that went out its place in the contact's WhatsApp thread, in one atomic step. Racing calls
 * for one contact open one thread between them; on PostgreSQL that is a real race.
 */
export function firstMessageOutcomeContract({ storage, f, seedWorkspace: seed }: ContractContext): void {
  const w = webhookFixtures();

  /** A contact with `count` first messages already handed to the provider. */
  async function handedOver(count = 1) {
    const { workspace, connector } = await seed();
    const { contact } = await storage().contacts.insertOrGetByPhone(f.contact(workspace.id));
    const messages = [];
    for (let i = 0; i < count; i++) {
      const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
      const message = f.outbound(workspace.id, lead.id, contact.id, {
        reason: "handed to the messaging provider",
        handedToProviderAt: f.at(10),
      });
      await storage().leads.registerIfNew(
        lead,
        f.opportunity(workspace.id, contact.id, lead.id, { id: lead.opportunityId }),
        message,
      );
      messages.push(message);
    }
    return { workspace, contact, messages };
  }
  const sent = (id: string, at = f.at(20)): FirstMessageOutcome => ({
    id,
    status: "sent",
    reason: null,
    providerMessageId: `wamid.${id}`,
    providerAnsweredAt: at,
    updatedAt: at,
  });
  const thread = (contact: ContactRecord, at = f.at(20)): FirstMessageThread => ({
    conversation: f.conversation(contact.workspaceId, contact.id, { createdAt: at, updatedAt: at }),
    message: {
      id: f.id(),
      workspaceId: contact.workspaceId,
      sender: "agent",
      content: "[template vitrina_welcome] Ana",
      createdAt: at,
    },
    started: {
      id: `evt_${f.id()}`,
      workspaceId: contact.workspaceId,
      type: "conversation.started",
      created: at,
      data: { conversation_id: "set below", contact_id: contact.id, channel: "whatsapp", started_by: "lead_intake" },
    },
    retryUntil: f.at(24 * 3600_000),
  });
  /** `thread` with the event naming its own conversation, as core builds it. */
  const consistent = (contact: ContactRecord, at?: string): FirstMessageThread => {
    const t = thread(contact, at);
    return { ...t, started: { ...t.started, data: { ...t.started.data, conversation_id: t.conversation.id } } };
  };
  const startedEvents = async (workspaceId: string) =>
    storage().events.listByWorkspace(workspaceId, { type: "conversation.started" });

  describe("first message outcome: one atomic step", () => {
    it("without a thread sets only the outcome, keeping the send lease; false for an unknown message", async () => {
      const { messages } = await handedOver();
      const message = messages[0]!;
      const failed: FirstMessageOutcome = {
        ...sent(message.id),
        status: "failed",
        reason: "number not on WhatsApp",
        providerMessageId: null,
      };
      expect(await storage().outbound.recordOutcome(failed)).toEqual({
        recorded: true,
        conversationId: null,
        opened: false,
        deliveries: 0,
      });
      const { id: _, ...answer } = failed;
      expect(await storage().outbound.findByLeadEvent(message.leadEventId)).toEqual({ ...message, ...answer });
      expect((await storage().outbound.recordOutcome(sent(f.id()))).recorded).toBe(false);
    });

    it("opens the contact's thread with the message, appends conversation.started and fans it out", async () => {
      const { workspace, contact, messages } = await handedOver();
      const listening = w.subscription(workspace.id, { events: ["conversation.started"] });
      const disabled = w.subscription(workspace.id, { events: ["conversation.started"], enabled: false });
      const elsewhere = w.subscription(workspace.id, { events: ["order.confirmed"] });
      for (const s of [listening, disabled, elsewhere]) await storage().webhookSubscriptions.insert(s);
      const t = consistent(contact);
      const recorded = await storage().outbound.recordOutcome(sent(messages[0]!.id), t);
      expect(recorded).toEqual({ recorded: true, conversationId: t.conversation.id, opened: true, deliveries: 1 });
      expect(await storage().conversations.findActive(workspace.id, contact.id, "whatsapp")).toEqual(t.conversation);
      expect(await storage().messages.listByConversation(t.conversation.id)).toEqual([
        { ...t.message, conversationId: t.conversation.id },
      ]);
      expect(await startedEvents(workspace.id)).toEqual([t.started]);
      const [delivery] = await storage().webhookDeliveries.listBySubscription(listening.id, { limit: 10 });
      expect(delivery).toMatchObject({ eventId: t.started.id, status: "pending", retryUntil: t.retryUntil });
      expect(await storage().webhookDeliveries.listBySubscription(disabled.id, { limit: 10 })).toEqual([]);
      expect((await storage().outbound.findByLeadEvent(messages[0]!.leadEventId))?.status).toBe("sent");
    });

    it("continues an active thread: the message joins it, only updatedAt moves, no event", async () => {
      const { workspace, contact, messages } = await handedOver();
      const escalated: ConversationRecord = {
        ...consistent(contact, f.at(1)).conversation,
        status: "pending",
        escalatedAt: f.at(2),
        updatedAt: f.at(2),
      };
      await storage().conversations.insert(escalated);
      const t = consistent(contact, f.at(30));
      const recorded = await storage().outbound.recordOutcome(sent(messages[0]!.id, f.at(30)), t);
      expect(recorded).toEqual({ recorded: true, conversationId: escalated.id, opened: false, deliveries: 0 });
      expect(await storage().conversations.get(workspace.id, escalated.id)).toEqual({
        ...escalated,
        updatedAt: f.at(30),
      });
      expect(await storage().conversations.get(workspace.id, t.conversation.id)).toBeNull();
      expect(await storage().messages.listByConversation(escalated.id)).toEqual([
        { ...t.message, conversationId: escalated.id },
      ]);
      expect(await startedEvents(workspace.id)).toEqual([]);
    });

    it("opens a new thread when the contact's only one is closed", async () => {
      const { workspace, contact, messages } = await handedOver();
      const closed = { ...consistent(contact, f.at(1)).conversation, status: "closed" as const };
      await storage().conversations.insert(closed);
      const t = consistent(contact);
      expect((await storage().outbound.recordOutcome(sent(messages[0]!.id), t)).opened).toBe(true);
      expect(await storage().conversations.findActive(workspace.id, contact.id, "whatsapp")).toEqual(t.conversation);
    });

    it("writes nothing for an unknown message, thread included", async () => {
      const { workspace, contact } = await handedOver();
      const t = consistent(contact);
      expect(await storage().outbound.recordOutcome(sent(f.id()), t)).toEqual({
        recorded: false,
        conversationId: null,
        opened: false,
        deliveries: 0,
      });
      expect(await storage().conversations.findActive(workspace.id, contact.id, "whatsapp")).toBeNull();
      expect(await startedEvents(workspace.id)).toEqual([]);
    });

    it("racing outcomes for one contact open one thread between them, holding every message", async () => {
      const { workspace, contact, messages } = await handedOver(RACERS);
      const threads = messages.map(() => consistent(contact));
      const results = await Promise.all(
        messages.map((m, i) => storage().outbound.recordOutcome(sent(m.id), threads[i])),
      );
      const opened = results.filter((r) => r.opened);
      expect(opened).toHaveLength(1);
      const active = await storage().conversations.findActive(workspace.id, contact.id, "whatsapp");
      expect(active?.id).toBe(opened[0]!.conversationId);
      expect(new Set(results.map((r) => r.conversationId))).toEqual(new Set([active!.id]));
      expect(await storage().messages.listByConversation(active!.id)).toHaveLength(RACERS);
      expect((await startedEvents(workspace.id)).map((e) => e.data.conversation_id)).toEqual([active!.id]);
    });
  });
}
