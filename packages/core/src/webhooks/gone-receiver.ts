import type { Logger } from "../ports/logger.js";
import type { ClaimCompletion, DeliveryOutcome, Storage, StorageTransaction } from "../ports/storage.js";
import type { WebhookDeliveryRecord, WebhookSubscriptionRecord } from "../ports/webhook-records.js";

export const GONE_REASON = "receiver answered 410 Gone";

export interface GoneAttempt {
  delivery: WebhookDeliveryRecord;
  /** The subscription's URL as the claim read it: the one that answered 410. */
  sentTo: string;
  /** The outcome to record: `moved` when the subscription has another URL by now. */
  outcomeIf(moved: boolean): DeliveryOutcome;
  /** The completion to write with that outcome. */
  completion(outcome: DeliveryOutcome): ClaimCompletion;
  at: string;
  /** Runs in the disable's transaction when this attempt disabled the subscription (emits `webhook_endpoint.disabled`). */
  onDisabled?(tx: StorageTransaction, disabled: WebhookSubscriptionRecord): Promise<unknown>;
}

/**
 * Records an attempt answered 410 Gone and disables its subscription, in one transaction, but only
 * while the subscription still has the URL that answered. A 410 speaks for that receiver alone: if
 * the user moved the subscription to a new URL while the attempt was in flight, the subscription
 * stays enabled and the delivery is retried, on the normal schedule, at the new URL.
 *
 * The disable is one conditional write (`onlyIfUrl`, `onlyIfEnabled`), not a read and then a
 * write, so a URL change committed in between can't be disabled. It comes before the completion
 * so the outcome can say which happened; a worker that lost the lease meanwhile writes nothing,
 * the disable included (the transaction is rolled back), as for any late completion. Resolves
 * with the outcome it decided, recorded or not.
 */
export async function recordGoneAttempt(storage: Storage, logger: Logger, gone: GoneAttempt): Promise<DeliveryOutcome> {
  const { delivery, sentTo } = gone;
  const ids = { deliveryId: delivery.id, subscriptionId: delivery.subscriptionId, eventId: delivery.eventId };
  let moved = false;
  let leaseLost = false;
  let disabled = false;
  try {
    await storage.transaction(async (tx) => {
      const subscriptions = tx.webhookSubscriptions;
      const written = await subscriptions.patch(delivery.workspaceId, delivery.subscriptionId, {
        enabled: false,
        disabledReason: GONE_REASON,
        onlyIfEnabled: true,
        onlyIfUrl: sentTo,
        updatedAt: gone.at,
      });
      // Nothing written: disabled already, deleted, or moved. The read only tells which (for the
      // outcome and the log); it decides no write to the subscription.
      const current = written ?? (await subscriptions.get(delivery.workspaceId, delivery.subscriptionId));
      moved = current !== null && current.url !== sentTo;
      disabled = written !== null;
      const [recorded] = await tx.webhookDeliveries.completeClaims([gone.completion(gone.outcomeIf(moved))]);
      if (!recorded) {
        leaseLost = true;
        throw new Error("the delivery's lease was lost: the 410 is left to its new holder");
      }
      if (written !== null) await gone.onDisabled?.(tx, written);
    });
  } catch (error) {
    // Flagged rather than matched: an adapter may wrap what its transaction rethrows.
    if (!leaseLost) throw error;
    return gone.outcomeIf(moved);
  }
  if (disabled) logger.warn(ids, "webhook subscription disabled after 410 Gone");
  if (moved)
    logger.warn(
      ids,
      "ignored a 410 Gone from a URL the subscription has since left: subscription kept enabled, delivery retried as after any failure",
    );
  return gone.outcomeIf(moved);
}
