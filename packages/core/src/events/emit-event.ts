import { VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { EventRecord } from "../ports/records.js";
import type { StorageTransaction } from "../ports/storage.js";
import { reasonsFromZod } from "../validation.js";
import { eventDataSchemas, type EventData } from "./event-schemas.js";
import type { EventType } from "./event-types.js";

/** How long deliveries of an event are retried (spec: 24 hours). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Writes an event into the transactional outbox, inside the caller's transaction, and fans it out
 * there too: one pending delivery per enabled subscription that chose its type. The event and its
 * deliveries commit with the state change that caused them, or none of it does. Every domain
 * operation emits through this one function; `data` is checked against the type's schema so a
 * receiver never gets a shape the README doesn't promise.
 */
export async function emitEvent<T extends EventType>(
  tx: StorageTransaction,
  deps: { clock: Clock; ids: IdGenerator },
  event: { workspaceId: string; type: T; data: EventData<T> },
): Promise<EventRecord> {
  const parsed = eventDataSchemas[event.type].safeParse(event.data);
  if (!parsed.success) {
    throw new VitrinaError("internal", `event ${event.type} has invalid data`, {
      reasons: reasonsFromZod(parsed.error),
    });
  }
  const now = deps.clock.now();
  const record: EventRecord = {
    id: `evt_${deps.ids().replace(/-/g, "")}`,
    workspaceId: event.workspaceId,
    type: event.type,
    created: now.toISOString(),
    data: parsed.data as Record<string, unknown>,
  };
  await tx.events.appendAndFanOut(record, { retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS).toISOString() });
  return record;
}
