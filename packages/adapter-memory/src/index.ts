import { StorageError, type Storage, type StorageRepositories } from "@vitrina/core";
import { Mutex } from "./mutex.js";
import { createMemoryRepositories } from "./repositories.js";
import { createMemoryState } from "./state.js";
import type { UndoLog } from "./table.js";

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
  const state = createMemoryState();
  const mutex = new Mutex();
  let closed = false;

  async function transaction<T>(work: (tx: StorageRepositories) => Promise<T>): Promise<T> {
    if (closed) throw new StorageError("storage_unavailable", "memory storage is closed");
    return mutex.run(async () => {
      const undo: UndoLog = [];
      try {
        return await work(createMemoryRepositories(state, undo));
      } catch (error) {
        for (let i = undo.length - 1; i >= 0; i--) undo[i]?.();
        throw error;
      }
    });
  }

  // Outside a transaction each call is a transaction of its own, so a failed write leaves nothing
  // and a read never sees another transaction's uncommitted writes.
  type AnyRepository = Record<string, (...args: unknown[]) => Promise<unknown>>;
  const autocommit: Record<string, AnyRepository> = {};
  for (const [repoName, repo] of Object.entries(createMemoryRepositories(state, []))) {
    const bound: AnyRepository = {};
    for (const method of Object.keys(repo)) {
      bound[method] = (...args) =>
        transaction((tx) => (tx[repoName as keyof StorageRepositories] as unknown as AnyRepository)[method]!(...args));
    }
    autocommit[repoName] = bound;
  }

  return {
    ...(autocommit as unknown as StorageRepositories),
    transaction,
    async ping() {
      if (closed) throw new StorageError("storage_unavailable", "memory storage is closed");
    },
    async close() {
      closed = true;
    },
  };
}
