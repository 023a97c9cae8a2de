import { fannedOutDelivery } from "../events/fanned-out-delivery.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { RETRY_WINDOW_MS } from "../events/emit-event.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { EventRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";

/** The type of the synthetic ping; not one of the catalogued events, so no subscription ever chooses it. */
export const TEST_EVENT_TYPE = "webhook.test";

/**
 * Sends one test delivery to one subscription through the outbox, whatever events it chose: a
 * `webhook.test` event is written with a pending delivery for that subscription only, in one
 * transaction, and the worker delivers it like any other (same signature, retries, history,
 * resend). The body receivers get:
 *
 * ```json
 * { "id": "evt_…", "type": "webhook.test", "created": "…",
 *   "data": { "subscription_id": "…", "message": "This is a test delivery from Vitrina." } }
 * ```
 */
export function createTestDelivery(deps: { storage: Storage; clock: Clock; ids: IdGenerator }) {
  const { storage, clock, ids } = deps;
  return async function sendTestDelivery(
    workspaceId: string,
    subscriptionId: string,
  ): Promise<{ delivery_id: string; event_id: string }> {
    return storage.transaction(async (tx) => {
      const subscription = await tx.webhookSubscriptions.get(workspaceId, subscriptionId);
      if (subscription === null) throw new NotFoundError(`webhook subscription ${subscriptionId} does not exist`);
      if (!subscription.enabled) throw new ConflictError("the subscription is disabled; enable it before testing");
      const now = clock.now();
      const event: EventRecord = {
        id: `evt_${ids().replace(/-/g, "")}`,
        workspaceId,
        type: TEST_EVENT_TYPE,
        created: now.toISOString(),
        data: { subscription_id: subscriptionId, message: "This is a test delivery from Vitrina." },
      };
      await tx.events.append(event);
      const deliveryId = `whd_${ids().replace(/-/g, "")}`;
      const retryUntil = new Date(now.getTime() + RETRY_WINDOW_MS).toISOString();
      await tx.webhookDeliveries.insert(fannedOutDelivery(event, subscriptionId, deliveryId, retryUntil));
      return { delivery_id: deliveryId, event_id: event.id };
    });
  };
}
export type SendTestDelivery = ReturnType<typeof createTestDelivery>;
