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
 * An event record checked against its type's published schema, with the retry deadline of its
 * deliveries: what `emitEvent` appends, and what a storage step that appends an event inside a
 * larger write (`outbound.recordOutcome`) is handed. `data` is checked so a receiver never gets a
 * shape the README doesn't promise.
 */
export function newEvent<T extends EventType>(
  deps: { clock: Clock; ids: IdGenerator },
  event: { workspaceId: string; type: T; data: EventData<T> },
): { record: EventRecord; retryUntil: string } {
  const parsed = eventDataSchemas[event.type].safeParse(event.data);
  if (!parsed.success) {
    throw new VitrinaError("internal", `event ${event.type} has invalid data`, {
      reasons: reasonsFromZod(parsed.error),
    });
  }
  const now = deps.clock.now();
  return {
    record: {
      id: `evt_${deps.ids().replace(/-/g, "")}`,
      workspaceId: event.workspaceId,
      type: event.type,
      created: now.toISOString(),
      data: parsed.data as Record<string, unknown>,
    },
    retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS).toISOString(),
  };
}

/**
 * Writes an event into the transactional outbox, inside the caller's transaction, and fans it out
 * there too: one pending delivery per enabled subscription that chose its type. The event and its
 * deliveries commit with the state change that caused them, or none of it does. Every domain
 * operation emits through this one function (or hands `newEvent`'s record to the one storage step
 * that appends it).
 */
export async function emitEvent<T extends EventType>(
  tx: StorageTransaction,
  deps: { clock: Clock; ids: IdGenerator },
  event: { workspaceId: string; type: T; data: EventData<T> },
): Promise<EventRecord> {
  const { record, retryUntil } = newEvent(deps, event);
  await tx.events.appendAndFanOut(record, { retryUntil });
  return record;
}
