import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { EventRecord } from "../ports/records.js";
import type { StorageTransaction } from "../ports/storage.js";
import type { EventType } from "./event-types.js";

/**
 * Writes an event into the transactional outbox, inside the caller's transaction: the event
 * commits with the state change that caused it, or neither does. Every domain operation emits
 * through this one function.
 */
export async function emitEvent(
  tx: StorageTransaction,
  deps: { clock: Clock; ids: IdGenerator },
  event: { workspaceId: string; type: EventType; data: Record<string, unknown> },
): Promise<EventRecord> {
  const record: EventRecord = {
    id: `evt_${deps.ids().replace(/-/g, "")}`,
    workspaceId: event.workspaceId,
    type: event.type,
    created: deps.clock.now().toISOString(),
    data: event.data,
  };
  await tx.events.append(record);
  return record;
}
