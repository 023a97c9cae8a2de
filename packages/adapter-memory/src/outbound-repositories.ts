import type { OutboundMessageRecord, StorageRepositories } from "@vitrina/core";
import type { MemoryState } from "./state.js";
import type { UndoLog } from "./table.js";
import { appendAndFanOut } from "./webhook-repositories.js";
import { withDelivery } from "./whatsapp-repositories.js";

const byCreated = (a: OutboundMessageRecord, b: OutboundMessageRecord) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
const newestFirst = (a: OutboundMessageRecord, b: OutboundMessageRecord) => byCreated(b, a);
const neverHanded = (m: OutboundMessageRecord) => m.status === "queued" && m.handedToProviderAt === null;

/** First messages of leads, with the send lease's compare-and-set (atomic: memory transactions run alone). */
export function createOutboundRepository(state: MemoryState, undo: UndoLog): Pick<StorageRepositories, "outbound"> {
  return {
    outbound: {
      async insert(message) {
        state.outbound.insert(message, undo);
      },
      async findByLeadEvent(leadEventId) {
        const found = state.outbound.lookup("lead", leadEventId);
        return found === null ? null : withDelivery(state, found);
      },
      async recordOutcome({ id, ...answer }, thread) {
        // Read without a copy: `replace` copies what it stores.
        const current = state.outbound.peek(id);
        if (current === null) return { recorded: false, conversationId: null, opened: false, deliveries: 0 };
        state.outbound.replace({ ...current, ...answer }, undo);
        if (thread === undefined) return { recorded: true, conversationId: null, opened: false, deliveries: 0 };
        const at = thread.message.createdAt;
        const active = state.conversations.lookup("activeWhatsapp", thread.conversation.contactId);
        if (active !== null) state.conversations.replace({ ...active, updatedAt: at }, undo);
        else state.conversations.insert(thread.conversation, undo);
        const conversationId = active?.id ?? thread.conversation.id;
        state.messages.insert({ ...thread.message, conversationId }, undo);
        const deliveries = active === null ? appendAndFanOut(state, undo, thread.started, thread.retryUntil).length : 0;
        return { recorded: true, conversationId, opened: active === null, deliveries };
      },
      async listByWorkspace(workspaceId) {
        return state.outbound
          .filter((m) => m.workspaceId === workspaceId)
          .sort(byCreated)
          .map((m) => withDelivery(state, m));
      },
      async findLatestLiveByContact(workspaceId, contactId, since) {
        const live = state.outbound
          .lookupAll("contact", contactId)
          .filter(
            (m) =>
              m.workspaceId === workspaceId && (m.status === "queued" || m.status === "sent") && m.createdAt >= since,
          );
        return live.sort(newestFirst)[0] ?? null;
      },
      async claimUnsent(id, change) {
        const current = state.outbound.get(id);
        if (current === null || !neverHanded(current)) return null;
        const next = { ...current, ...change };
        state.outbound.replace(next, undo);
        return next;
      },
      async claimForSending(message, phoneE164, change) {
        const stored = state.contacts.get(message.contactId);
        const contact = stored?.workspaceId === message.workspaceId ? stored : null;
        if (contact === null) return { contact: null, claimed: null };
        const current = state.outbound.get(message.id);
        // The contact's latest consent evidence must still grant it: a later lead may have withdrawn it.
        const passes =
          contact.whatsappOptedOutAt === null &&
          contact.phoneE164 === phoneE164 &&
          contact.whatsappConsent?.granted === true;
        if (current === null || !passes || !neverHanded(current)) return { contact, claimed: null };
        const claimed = { ...current, ...change };
        state.outbound.replace(claimed, undo);
        return { contact, claimed };
      },
      async failInFlight(id, reason, at) {
        const current = state.outbound.get(id);
        if (
          current === null ||
          current.status !== "queued" ||
          current.handedToProviderAt === null ||
          current.providerAnsweredAt !== null
        )
          return false;
        return state.outbound.replace({ ...current, status: "failed", reason, updatedAt: at }, undo);
      },
      async listUnsettled(before, limit) {
        return state.outbound.select(
          (m) =>
            m.status === "queued" && m.providerAnsweredAt === null && (m.handedToProviderAt ?? m.createdAt) <= before,
          byCreated,
          limit,
        );
      },
    },
  };
}
