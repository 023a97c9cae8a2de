import type { EventRecord } from "./records.js";
import type { WebhookSubscriptionRecord } from "./webhook-records.js";

// Part of the Storage port (domain events (the outbox's source).); see storage.ts.

export interface EventRepository {
  append(event: EventRecord): Promise<void>;
  /**
   * Appends the event and returns the enabled webhook subscriptions of its workspace that chose
   * its type, oldest first (as `webhookSubscriptions.listEnabledForEvent`), in one step: the
   * outbox's fan-out reads them to write one delivery each in the same transaction.
   */
  appendAndFindSubscribers(event: EventRecord): Promise<WebhookSubscriptionRecord[]>;
  get(id: string): Promise<EventRecord | null>;
  /** Oldest first. */
  listByWorkspace(workspaceId: string, options?: { type?: string }): Promise<EventRecord[]>;
}
