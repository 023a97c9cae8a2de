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
 * Wraps a Storage so that writes which make a delivery due notify `signal` right after they
 * commit (never before: a worker woken early would find nothing). Domain code stays unaware of
 * workers, which is why every emitter gets millisecond delivery for free.
 *
 * Only two methods of the port make a delivery due, and they are listed here on purpose:
 * `insert` (a new delivery) and `reschedule` (a resend). `claimDueDeliveries` and `completeClaim`
 * are the worker's own writes, and it re-arms its timer itself. A new port method that makes
 * deliveries due must be added to `signalingDeliveries`; commit-signal.test.ts classifies every
 * method of the port and fails until it is.
 */
export function notifyOnDeliveryCommit(storage: Storage, signal: CommitSignal): Storage {
  return {
    ...storage,
    // Outside a transaction each write is its own commit: notify as soon as it resolves.
    webhookDeliveries: signalingDeliveries(storage.webhookDeliveries, () => signal.notify()),
    transaction: async <T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> => {
      let wrote = false;
      const result = await storage.transaction((tx) =>
        work({ ...tx, webhookDeliveries: signalingDeliveries(tx.webhookDeliveries, () => (wrote = true)) }),
      );
      if (wrote) signal.notify();
      return result;
    },
    ping: () => storage.ping(),
    close: () => storage.close(),
    ...(storage.listenForDeliveries && {
      listenForDeliveries: storage.listenForDeliveries.bind(storage),
    }),
  };
}

/** `deliveries` with `onWrite` called after each write that makes a delivery due. */
function signalingDeliveries(deliveries: WebhookDeliveryRepository, onWrite: () => void): WebhookDeliveryRepository {
  return {
    get: (...args) => deliveries.get(...args),
    claimDueDeliveries: (...args) => deliveries.claimDueDeliveries(...args),
    completeClaim: (...args) => deliveries.completeClaim(...args),
    readEventsAndSubscriptions: (...args) => deliveries.readEventsAndSubscriptions(...args),
    outboxStats: (...args) => deliveries.outboxStats(...args),
    listBySubscription: (...args) => deliveries.listBySubscription(...args),
    insert: async (...args) => {
      await deliveries.insert(...args);
      onWrite();
    },
    reschedule: async (...args) => {
      const rescheduled = await deliveries.reschedule(...args);
      onWrite();
      return rescheduled;
    },
  };
}
