import { StorageError, type Storage, type StorageRepositories } from "@vitrina/core";
import { Mutex } from "./mutex.js";
import { createMemoryRepositories } from "./repositories.js";
import type { MemoryState } from "./state.js";

/** `memoryStorage` over a given state: the package exports only `memoryStorage`; tests read every table of the state. */
export function memoryStorageOver(state: MemoryState): Storage {
  const mutex = new Mutex();
  let closed = false;

  // One set of repositories for the storage's whole life, built once: transactions run one at a
  // time, so they can share it, each writing its undo steps into the journal of the transaction
  // running now. (Building the ~100 guarded methods per transaction cost more than the writes.)
  let journal: Array<() => void> = [];
  const repositories = createMemoryRepositories(state, { push: (step) => journal.push(step) });

  async function transaction<T>(work: (tx: StorageRepositories) => Promise<T>): Promise<T> {
    if (closed) throw new StorageError("storage_unavailable", "memory storage is closed");
    return mutex.run(async () => {
      const undo: Array<() => void> = [];
      journal = undo;
      try {
        return await work(repositories);
      } catch (error) {
        for (let i = undo.length - 1; i >= 0; i--) undo[i]?.();
        throw error;
      } finally {
        journal = [];
      }
    });
  }

  // Outside a transaction each call is a transaction of its own, so a failed write leaves nothing
  // and a read never sees another transaction's uncommitted writes.
  type AnyRepository = Record<string, (...args: unknown[]) => Promise<unknown>>;
  const autocommit: Record<string, AnyRepository> = {};
  for (const [repoName, repo] of Object.entries(repositories as unknown as Record<string, AnyRepository>)) {
    const bound: AnyRepository = {};
    for (const [method, call] of Object.entries(repo)) {
      bound[method] = (...args) => transaction(() => call(...args));
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
