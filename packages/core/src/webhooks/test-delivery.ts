import { fannedOutDelivery } from "../events/fanned-out-delivery.js";
import { ConflictError, NotFoundError, VitrinaError } from "../errors.js";
import { newEvent, RETRY_WINDOW_MS } from "../events/emit-event.js";
import { EVENT_TYPES, isEventType, type EventType } from "../events/event-types.js";
import { sampleEventData } from "../events/sample-events.js";
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
 *
 * With `type` (one of the event types), the event is instead a realistic sample of that type
 * (`sampleEventData`, valid against its published schema), so a receiver can be tried against what
 * it will really get; the subscription need not have chosen that type.
 */
export function createTestDelivery(deps: { storage: Storage; clock: Clock; ids: IdGenerator }) {
  const { storage, clock, ids } = deps;
  const pingEvent = (workspaceId: string, subscriptionId: string, now: Date) => {
    const record: EventRecord = {
      id: `evt_${ids().replace(/-/g, "")}`,
      workspaceId,
      type: TEST_EVENT_TYPE,
      created: now.toISOString(),
      data: { subscription_id: subscriptionId, message: "This is a test delivery from Vitrina." },
    };
    return { record, retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS).toISOString() };
  };
  const sampleEvent = (workspaceId: string, type: EventType, now: Date) => {
    const sampleId = (kind: string) => `sample_${kind}_${ids().replace(/-/g, "").slice(0, 12)}`;
    return newEvent({ clock, ids }, { workspaceId, type, data: sampleEventData(type, sampleId, now) });
  };
  return async function sendTestDelivery(
    workspaceId: string,
    subscriptionId: string,
    type?: string,
  ): Promise<{ delivery_id: string; event_id: string }> {
    if (type !== undefined && !isEventType(type)) {
      const reason = `must be one of ${EVENT_TYPES.join(", ")}`;
      throw new VitrinaError("invalid_payload", `unknown event type "${type}"`, {
        reasons: [{ field: "type", reason }],
      });
    }
    return storage.transaction(async (tx) => {
      const subscription = await tx.webhookSubscriptions.get(workspaceId, subscriptionId);
      if (subscription === null) throw new NotFoundError(`webhook subscription ${subscriptionId} does not exist`);
      if (!subscription.enabled) throw new ConflictError("the subscription is disabled; enable it before testing");
      const now = clock.now();
      const { record: event, retryUntil } =
        type === undefined ? pingEvent(workspaceId, subscriptionId, now) : sampleEvent(workspaceId, type, now);
      await tx.events.append(event);
      const deliveryId = `whd_${ids().replace(/-/g, "")}`;
      await tx.webhookDeliveries.insert(fannedOutDelivery(event, subscriptionId, deliveryId, retryUntil));
      return { delivery_id: deliveryId, event_id: event.id };
    });
  };
}
export type SendTestDelivery = ReturnType<typeof createTestDelivery>;
