import type { EventRecord } from "./records.js";
import type { WebhookDeliveryRecord } from "./webhook-records.js";

// Part of the Storage port (domain events (the outbox's source).); see storage.ts.

export interface EventRepository {
  append(event: EventRecord): Promise<void>;
  /**
   * The outbox's write, in one step: appends the event and fans it out, one new delivery per
   * enabled webhook subscription of its workspace that chose its type. Each delivery is `pending`,
   * due at once (`nextAttemptAt` and `createdAt` are the event's `created`), never attempted,
   * unleased, retried until `fanOut.retryUntil`; its id is `whd_` and 32 hex digits, chosen by
   * storage (a single-statement adapter can't call back for ids). Returns the deliveries, oldest
   * subscription first (as `webhookSubscriptions.listEnabledForEvent` orders them). An adapter with
   * delivery notifications raises one when any delivery was written, as `webhookDeliveries.insert` does.
   */
  appendAndFanOut(event: EventRecord, fanOut: { retryUntil: string }): Promise<WebhookDeliveryRecord[]>;
  get(id: string): Promise<EventRecord | null>;
  /** Oldest first. */
  listByWorkspace(workspaceId: string, options?: { type?: string }): Promise<EventRecord[]>;
}
