import type { Storage } from "@vitrina/core";
import { memoryStorageOver } from "./memory-storage.js";
import { createMemoryState } from "./state.js";

/**
 * Storage in process memory: for tests, demos and single-process use. Transactions run one at a
 * time (a FIFO mutex) and roll back exactly through an undo journal, so the same invariants hold
 * as on PostgreSQL. Calls outside a transaction are transactions of their own.
 *
 * ```ts
 * const vitrina = createVitrina({ storage: memoryStorage(), ... });
 * ```
 */
export function memoryStorage(): Storage {
  return memoryStorageOver(createMemoryState());
}
