import type {
  EventRepository,
  OutboundMessageRepository,
  Storage,
  StorageTransaction,
  WebhookDeliveryRepository,
} from "../ports/storage.js";

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
 * Only four methods of the port make a delivery due, and they are listed here on purpose:
 * `events.appendAndFanOut` (an event's deliveries, when it has subscribers),
 * `outbound.recordOutcome` (a first message that opened a conversation, ditto),
 * `webhookDeliveries.insert` (a new delivery) and `reschedule` (a resend). `claimDueDeliveries` and
 * `completeClaims` are the worker's own writes, and it re-arms its timer itself. A new port method
 * that makes deliveries due must be added here; commit-signal.test.ts classifies every method of
 * these three repositories and fails until it is.
 */
export function notifyOnDeliveryCommit(storage: Storage, signal: CommitSignal): Storage {
  return {
    ...storage,
    // Outside a transaction each write is its own commit: notify as soon as it resolves.
    events: signalingEvents(storage.events, () => signal.notify()),
    outbound: signalingOutbound(storage.outbound, () => signal.notify()),
    webhookDeliveries: signalingDeliveries(storage.webhookDeliveries, () => signal.notify()),
    transaction: async <T>(work: (tx: StorageTransaction) => Promise<T>): Promise<T> => {
      let wrote = false;
      const onWrite = () => (wrote = true);
      const result = await storage.transaction((tx) =>
        work({
          ...tx,
          events: signalingEvents(tx.events, onWrite),
          outbound: signalingOutbound(tx.outbound, onWrite),
          webhookDeliveries: signalingDeliveries(tx.webhookDeliveries, onWrite),
        }),
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
    completeClaims: (...args) => deliveries.completeClaims(...args),
    outboxStats: (...args) => deliveries.outboxStats(...args),
    listBySubscription: (...args) => deliveries.listBySubscription(...args),
    attemptCounts: (...args) => deliveries.attemptCounts(...args),
    requeueFailed: async (...args) => {
      const recovered = await deliveries.requeueFailed(...args);
      onWrite();
      return recovered;
    },
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

/** `events` with `onWrite` called after a fan-out that wrote at least one delivery. */
function signalingEvents(events: EventRepository, onWrite: () => void): EventRepository {
  return {
    append: (...args) => events.append(...args),
    get: (...args) => events.get(...args),
    listByWorkspace: (...args) => events.listByWorkspace(...args),
    appendAndFanOut: async (...args) => {
      const deliveries = await events.appendAndFanOut(...args);
      if (deliveries.length > 0) onWrite();
      return deliveries;
    },
  };
}

/** `outbound` with `onWrite` called after an outcome whose new conversation's event was fanned out. */
function signalingOutbound(outbound: OutboundMessageRepository, onWrite: () => void): OutboundMessageRepository {
  return {
    ...outbound,
    recordOutcome: async (...args) => {
      const recorded = await outbound.recordOutcome(...args);
      if (recorded.deliveries > 0) onWrite();
      return recorded;
    },
  };
}
