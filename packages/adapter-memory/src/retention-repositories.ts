import type { StorageRepositories } from "@vitrina/core";
import type { RetentionCounts, RetentionCutoffs, WebhookDeliveryRecord } from "@vitrina/core/storage";
import type { MemoryState } from "./state.js";
import type { UndoLog } from "./table.js";

/** When a finished delivery finished: its success, or the last due time of a failed one. */
const finishedAt = (d: WebhookDeliveryRecord) => d.deliveredAt ?? d.nextAttemptAt;
const finishedBefore = (d: WebhookDeliveryRecord, before: string) => d.status !== "pending" && finishedAt(d) < before;
const oldestFinishedFirst = (a: WebhookDeliveryRecord, b: WebhookDeliveryRecord) =>
  finishedAt(a).localeCompare(finishedAt(b)) || a.id.localeCompare(b.id);

/** Retention over one memory state: the same selections as the PostgreSQL adapter's, row by row. */
export function createRetentionRepository(state: MemoryState, undo: UndoLog): Pick<StorageRepositories, "retention"> {
  const attemptsOf = (deliveryIds: Set<string>) => state.webhookAttempts.filter((a) => deliveryIds.has(a.deliveryId));
  /** Events no remaining delivery references, once `doomed` deliveries are gone. */
  const eventIdsStillDelivered = (doomed: (d: WebhookDeliveryRecord) => boolean) =>
    new Set(state.webhookDeliveries.filter((d) => !doomed(d)).map((d) => d.eventId));
  const unredacted = (before: string) =>
    state.leads.filter((l) => l.payloadRedactedAt === undefined && l.receivedAt < before);
  const unredactedMessages = (before: string) =>
    state.messages.filter((m) => m.contentRedactedAt === undefined && m.createdAt < before);

  return {
    retention: {
      async purgeFinishedDeliveries(before, limit) {
        const doomed = state.webhookDeliveries.select((d) => finishedBefore(d, before), oldestFinishedFirst, limit);
        const attempts = attemptsOf(new Set(doomed.map((d) => d.id)));
        for (const attempt of attempts) state.webhookAttempts.delete(attempt.id, undo);
        for (const delivery of doomed) state.webhookDeliveries.delete(delivery.id, undo);
        return { deliveries: doomed.length, attempts: attempts.length };
      },
      async purgeUndeliveredEvents(before, limit) {
        const delivered = eventIdsStillDelivered(() => false);
        const doomed = state.events.select(
          (e) => e.created < before && !delivered.has(e.id),
          (a, b) => a.created.localeCompare(b.created),
          limit,
        );
        for (const event of doomed) state.events.delete(event.id, undo);
        return doomed.length;
      },
      async redactLeadPayloads(before, limit, redactedAt) {
        const leads = unredacted(before)
          .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt))
          .slice(0, limit);
        for (const lead of leads)
          state.leads.replace({ ...lead, payload: { redacted_at: redactedAt }, payloadRedactedAt: redactedAt }, undo);
        return leads.length;
      },
      async redactMessageTexts(before, limit, redactedAt) {
        const messages = unredactedMessages(before)
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
          .slice(0, limit);
        for (const { details: _details, ...message } of messages)
          state.messages.replace({ ...message, content: "", contentRedactedAt: redactedAt }, undo);
        return messages.length;
      },
      async countEligible(cutoffs: RetentionCutoffs): Promise<RetentionCounts> {
        const before = cutoffs.deliveriesFinishedBefore;
        const counts: RetentionCounts = { attempts: 0, deliveries: 0, events: 0, leadPayloads: 0, messageTexts: 0 };
        if (before !== null) {
          const doomed = state.webhookDeliveries.filter((d) => finishedBefore(d, before));
          counts.deliveries = doomed.length;
          counts.attempts = attemptsOf(new Set(doomed.map((d) => d.id))).length;
          const delivered = eventIdsStillDelivered((d) => finishedBefore(d, before));
          counts.events = state.events.count((e) => e.created < before && !delivered.has(e.id));
        }
        if (cutoffs.leadsReceivedBefore !== null) counts.leadPayloads = unredacted(cutoffs.leadsReceivedBefore).length;
        if (cutoffs.messagesCreatedBefore !== null)
          counts.messageTexts = unredactedMessages(cutoffs.messagesCreatedBefore).length;
        return counts;
      },
    },
  };
}
