import type { Storage, StorageTransaction, WebhookDeliveryRepository } from "../ports/storage.js";

/** Listeners told "deliveries were just committed": running workers wake on it. */
export function createCommitSignal() {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify(): void {
      for (const listener of listeners) listener();
    },
  };
}
export type CommitSignal = ReturnType<typeof createCommitSignal>;

/**
 * Wraps a Storage so that a transaction that inserted deliveries notifies `signal` right after it
 * commits (never before: a worker woken early would find nothing), and so does a resend. Domain
 * code stays unaware of workers, which is why every emitter gets millisecond delivery for free.
 */
export function notifyOnDeliveryCommit(storage: Storage, signal: CommitSignal): Storage {
  const watch = (repo: WebhookDeliveryRepository, onWrite: () => void): WebhookDeliveryRepository =>
    new Proxy(repo, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== "insert" && prop !== "reschedule") return typeof value === "function" ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          onWrite();
          return result;
        };
      },
    });
  const withDeliveries = (tx: StorageTransaction, onWrite: () => void): StorageTransaction =>
    new Proxy(tx, {
      get(target, prop) {
        if (prop === "webhookDeliveries") return watch(target.webhookDeliveries, onWrite);
        return Reflect.get(target, prop, target) as unknown;
      },
    });
  return new Proxy(storage, {
    get(target, prop) {
      if (prop === "webhookDeliveries") return watch(target.webhookDeliveries, () => signal.notify());
      if (prop === "transaction") {
        return async <T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> => {
          let wrote = false;
          const result = await target.transaction((tx) => work(withDeliveries(tx, () => (wrote = true))));
          if (wrote) signal.notify();
          return result;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
