import type { WebhookDeliveryRecord } from "../ports/webhook-records.js";

/**
 * The order `claimDueDeliveries` hands a batch out in: earliest `nextAttemptAt` first, then by id,
 * so deliveries due at the same instant still come in one fixed order. For `Array.prototype.sort`.
 */
export const dueOrder = (
  a: Pick<WebhookDeliveryRecord, "nextAttemptAt" | "id">,
  b: Pick<WebhookDeliveryRecord, "nextAttemptAt" | "id">,
): number => (a.nextAttemptAt < b.nextAttemptAt ? -1 : a.nextAttemptAt > b.nextAttemptAt ? 1 : a.id < b.id ? -1 : 1);
