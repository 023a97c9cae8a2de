import type { EventRecord } from "../ports/records.js";
import type { WebhookDeliveryRecord } from "../ports/webhook-records.js";

/**
 * A fresh delivery of `event` to one subscriber, as `events.appendAndFanOut` (and a test delivery)
 * writes it: pending, due at once, never attempted, unleased. For adapters that build records in
 * code (the memory adapter; the PostgreSQL one writes the same columns in SQL) and for the
 * contract suite, which checks them.
 */
export function fannedOutDelivery(
  event: EventRecord,
  subscriptionId: string,
  id: string,
  retryUntil: string,
): WebhookDeliveryRecord {
  return {
    id,
    workspaceId: event.workspaceId,
    subscriptionId,
    eventId: event.id,
    eventType: event.type,
    status: "pending",
    attemptCount: 0,
    attemptsBeforeResend: 0,
    nextAttemptAt: event.created,
    retryUntil,
    leaseUntil: null,
    leasedBy: null,
    lastError: null,
    createdAt: event.created,
    deliveredAt: null,
  };
}
