import { ConflictError, type DeliveryState, type StorageRepositories } from "@vitrina/core";
import { mergeDelivery } from "@vitrina/core/storage";
import type { MemoryState } from "./state.js";
import type { UndoLog } from "./table.js";

/** The stored delivery state of a provider message id, or null. */
export function deliveryOf(state: MemoryState, workspaceId: string, providerMessageId: string | null | undefined) {
  if (providerMessageId === null || providerMessageId === undefined) return null;
  return state.deliveryStates.get(`${workspaceId}/${providerMessageId}`)?.state ?? null;
}

/** `record` with its `delivery` attached when the provider reported on its message. */
export function withDelivery<T extends { workspaceId: string; providerMessageId?: string | null }>(
  state: MemoryState,
  record: T,
): T & { delivery?: DeliveryState } {
  const delivery = deliveryOf(state, record.workspaceId, record.providerMessageId);
  return delivery === null ? record : { ...record, delivery };
}

const newestFirst = (a: { occurredAt: string; recordedAt: string; id: string }, b: typeof a) =>
  b.occurredAt.localeCompare(a.occurredAt) || b.recordedAt.localeCompare(a.recordedAt) || b.id.localeCompare(a.id);

/** WhatsApp channels, delivery reports and the consent ledger in memory (transactions run alone, so each step is atomic). */
export function createWhatsAppRepositories(
  state: MemoryState,
  undo: UndoLog,
): Pick<StorageRepositories, "whatsappChannels" | "deliveryReports" | "consentLedger"> {
  return {
    whatsappChannels: {
      async put(channel) {
        const holder = state.whatsappChannels.lookup("phoneNumberId", channel.phoneNumberId);
        if (holder !== null && holder.workspaceId !== channel.workspaceId)
          throw new ConflictError("another workspace's WhatsApp channel already has this phone number id");
        if (!state.whatsappChannels.replace(channel, undo)) state.whatsappChannels.insert(channel, undo);
        return state.whatsappChannels.get(channel.workspaceId)!;
      },
      async get(workspaceId) {
        return state.whatsappChannels.get(workspaceId);
      },
      async findByPhoneNumberIds(ids) {
        return ids.flatMap((id) => state.whatsappChannels.lookup("phoneNumberId", id) ?? []);
      },
      async hasVerifyTokenHash(hash) {
        return state.whatsappChannels.count((c) => c.verifyTokenHash === hash) > 0;
      },
      async delete(workspaceId) {
        return state.whatsappChannels.delete(workspaceId, undo);
      },
    },
    deliveryReports: {
      async recordStatuses(workspaceId, reports) {
        return reports.map((report) => {
          const key = `${workspaceId}/${report.providerMessageId}`;
          const stored = state.deliveryStates.get(key);
          const merged = mergeDelivery(stored?.state ?? null, report);
          const row = {
            workspaceId,
            providerMessageId: report.providerMessageId,
            state: merged,
            updatedAt: new Date().toISOString(),
          };
          if (stored === null) state.deliveryStates.insert(row, undo);
          else state.deliveryStates.replace(row, undo);
          const outbound = state.outbound.lookupAll("provider", key)[0];
          const message = state.messages.lookup("provider", key);
          const contactId =
            outbound?.contactId ??
            (message === null ? null : (state.conversations.get(message.conversationId)?.contactId ?? null));
          return { providerMessageId: report.providerMessageId, state: merged, contactId };
        });
      },
      async get(workspaceId, providerMessageId) {
        return deliveryOf(state, workspaceId, providerMessageId);
      },
      async purgeOrphans(before, limit) {
        const orphans = state.deliveryStates
          .filter((d) => {
            const key = `${d.workspaceId}/${d.providerMessageId}`;
            return (
              d.updatedAt < before &&
              state.outbound.lookupAll("provider", key).length === 0 &&
              state.messages.lookup("provider", key) === null
            );
          })
          .slice(0, limit);
        for (const d of orphans) state.deliveryStates.delete(`${d.workspaceId}/${d.providerMessageId}`, undo);
        return orphans.length;
      },
    },
    consentLedger: {
      async append(entry) {
        if (state.consentLedger.holds("dedupe", entry)) return false;
        state.consentLedger.insert(entry, undo);
        return true;
      },
      async listByContact(workspaceId, contactId, { limit }) {
        return state.consentLedger
          .lookupAll("contact", contactId)
          .filter((e) => e.workspaceId === workspaceId)
          .sort(newestFirst)
          .slice(0, limit);
      },
    },
  };
}
