import { systemClock, type Clock } from "../ports/clock.js";
import { type Logger } from "../ports/logger.js";
import { describeError } from "../logging/loggers.js";
import type { CommitSignal } from "./commit-signal.js";
import type { ClaimedDelivery } from "../ports/storage.js";
import type { OutboxDispatcher } from "./outbox-dispatcher.js";
import { nextTurn } from "./next-turn.js";

/** Spec: the outbox attempts deliveries every 30 seconds. */
export const DEFAULT_SWEEP_INTERVAL_MS = 30_000;

export interface OutboxWorkerOptions {
  /** Distinguishes this worker's leases; default a random id. */
  workerId?: string;
  /** Sweep cadence for retries and missed wake-ups. Default 30000. */
  sweepIntervalMs?: number;
}

export interface OutboxWorker {
  readonly workerId: string;
  /** How often the loop sweeps, so also the longest a healthy loop goes without a heartbeat. */
  readonly sweepIntervalMs: number;
  /** When the loop last went round (claimed, or woke to sleep again); `/readyz` checks its age. */
  lastHeartbeatAt(): Date;
  /** Runs a sweep now (also called after every commit that adds deliveries). */
  wake(): void;
  /** Stops claiming, lets in-flight deliveries finish and record their outcome, then resolves. */
  stop(): Promise<void>;
}

/**
 * The delivery loop over a bounded in-flight pool: claim as many due deliveries as there are free
 * slots, start them, and claim again while claims come back full; otherwise sleep until a
 * commit, the next sweep, or a slot freeing that could let more through (the pool was full, or
 * its subscription was at its cap). A slow receiver holds only its own slots, never the loop.
 * Errors (storage down) are logged and the loop carries on at the next sweep.
 *
 * A slot is a request to a receiver: it frees when the attempt is over, while its outcome is still
 * being recorded (the completion batcher writes finished attempts together), so the next claim and
 * its POSTs overlap that write instead of waiting for it. The delivery stays leased until recorded,
 * so no claim takes it meanwhile. Deliveries not yet recorded are bounded too, at twice the pool,
 * so a slow storage holds the loop back instead of piling up outcomes to write.
 *
 * Claims also reach a little past the free slots: up to half the pool more in all, and half a
 * subscription's cap more for each, wait claimed for a slot, and one starts the moment a slot frees,
 * instead of after the next claim's round trip (under load a freed slot otherwise sat idle for one
 * to two claims, with one receiver at its cap). Waiting never lets more requests go out at once:
 * the pool and each subscription's cap bound what is attempted, not what is claimed. A waiting
 * delivery is given back unattempted (its lease cleared, due at once again) when its lease no longer
 * covers an attempt with margin, when its subscription's receiver has just answered 410, and on stop.
 */
export function startOutboxWorker(
  dispatcher: OutboxDispatcher,
  signal: CommitSignal,
  logger: Logger,
  options: OutboxWorkerOptions = {},
  clock: Clock = systemClock,
): OutboxWorker {
  const workerId = options.workerId ?? `worker-${crypto.randomUUID().slice(0, 8)}`;
  const interval = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  /** Attempts under way per subscription: the slots taken. */
  const held: Record<string, number> = {};
  const attempting = () => Object.values(held).reduce((sum, n) => sum + n, 0);
  /** Claimed deliveries waiting for a slot, in the order claimed (a few dozen at most). */
  const waiting: ClaimedDelivery[] = [];
  /** How far claims reach past the free slots: in all, and per subscription past its cap. */
  const maxWaiting = Math.floor(dispatcher.concurrency / 2);
  const aheadPerSubscription = Math.floor(dispatcher.perSubscriptionConcurrency / 2);
  /** What the worker holds per subscription, attempting or waiting: what a claim counts against each cap. */
  const claimedCounts = () => {
    const counts: Record<string, number> = { ...held };
    for (const { delivery } of waiting) counts[delivery.subscriptionId] = (counts[delivery.subscriptionId] ?? 0) + 1;
    return counts;
  };
  /** Deliveries not yet recorded: attempting, or attempted with their outcome being written. */
  const unrecorded = new Set<Promise<void>>();
  const maxUnrecorded = 2 * dispatcher.concurrency;
  let running = true;
  let woken = false;
  /**
   * A claim is in flight. It counted the slots held when it started: one freed meanwhile is room it
   * didn't see, so it wakes the loop to claim again whatever the pool and the cap look like now. A
   * short batch ends the loop's claiming, and without this a capped subscription whose slots freed
   * during the claim, each below the cap, woke nobody: its backlog waited for the sweep.
   */
  let claiming = false;
  let sleeper: (() => void) | null = null;
  let lastHeartbeat = clock.now();
  let lastHeartbeatLogged = Number.NEGATIVE_INFINITY;
  let claimedSinceLog = 0;

  // Once per sweep interval at most, a debug line with what the loop did since the last one.
  const heartbeat = (claimed: number) => {
    lastHeartbeat = clock.now();
    claimedSinceLog += claimed;
    if (lastHeartbeat.getTime() - lastHeartbeatLogged < interval) return;
    logger.debug(
      {
        workerId,
        claimed: claimedSinceLog,
        inFlight: attempting(),
        waiting: waiting.length,
        recording: unrecorded.size - attempting(),
      },
      "outbox worker heartbeat",
    );
    lastHeartbeatLogged = lastHeartbeat.getTime();
    claimedSinceLog = 0;
  };

  const wake = () => {
    woken = true;
    sleeper?.();
  };
  const unsubscribe = signal.subscribe(wake);

  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, interval);
      function done() {
        clearTimeout(timer);
        sleeper = null;
        resolve();
      }
      sleeper = done;
    });

  /** Gives a waiting delivery back unattempted, then claims again: it is due at once. */
  function giveBack(claimed: ClaimedDelivery) {
    const givingBack: Promise<void> = dispatcher
      .release(claimed, workerId)
      .then(
        () => wake(),
        (error: unknown) =>
          // Its lease runs out and it is claimed again then: a delay, never a loss.
          logger.error(
            { workerId, deliveryId: claimed.delivery.id, error: describeError(error) },
            "giving back a claimed webhook delivery failed; it is retried once its lease expires",
          ),
      )
      .finally(() => unrecorded.delete(givingBack));
    unrecorded.add(givingBack);
  }

  /** Starts the waiting deliveries that have a slot now, in the order claimed. */
  function startWaiting() {
    if (!running) return;
    for (let i = 0; i < waiting.length && attempting() < dispatcher.concurrency;) {
      const claimed = waiting[i]!;
      const subscription = claimed.delivery.subscriptionId;
      const sendable = !dispatcher.isHeldBack(subscription) && dispatcher.leaseCovers(claimed);
      if (sendable && (held[subscription] ?? 0) >= dispatcher.perSubscriptionConcurrency) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      if (sendable) start(claimed);
      else giveBack(claimed);
    }
  }

  function start(claimed: ClaimedDelivery) {
    const subscription = claimed.delivery.subscriptionId;
    held[subscription] = (held[subscription] ?? 0) + 1;
    // Freed once: by the dispatcher when the attempt ends, or here if `deliver` failed before that.
    let slotFreed = false;
    const freeSlot = () => {
      if (slotFreed) return;
      slotFreed = true;
      // Whether a claim could have been held back by this slot: the loop had no room to claim into,
      // or its subscription had all it may claim.
      const freesBlockedWork =
        claiming ||
        freeSlots() <= 0 ||
        claimedCounts()[subscription]! >= dispatcher.perSubscriptionConcurrency + aheadPerSubscription;
      if (--held[subscription]! === 0) delete held[subscription];
      startWaiting();
      if (freesBlockedWork) wake();
    };
    // `claimAgain`: a 410's subscription was held back from claims while its disable was written;
    // claiming now ends its due deliveries "subscription disabled" instead of at the next sweep.
    const settle = (claimAgain: boolean) => {
      freeSlot();
      // Recorded: room under the unrecorded bound, which may have been what held claims back.
      const freesBlockedWork = claimAgain || claiming || freeSlots() <= 0;
      unrecorded.delete(delivering);
      if (freesBlockedWork) wake();
    };
    const delivering = dispatcher.deliver(claimed, workerId, freeSlot).then(settle, (error: unknown) => {
      settle(false);
      throw error;
    });
    unrecorded.add(delivering);
  }

  /** How many more deliveries the loop may claim now: free slots plus free waiting room. */
  const freeSlots = () =>
    Math.min(
      dispatcher.concurrency + maxWaiting - attempting() - waiting.length,
      maxUnrecorded - unrecorded.size - waiting.length,
    );

  logger.info({ workerId, sweepIntervalMs: interval, concurrency: dispatcher.concurrency }, "outbox worker started");
  const loop = (async () => {
    while (running) {
      woken = false;
      let claimed = 0;
      const free = freeSlots();
      if (free > 0) {
        try {
          claiming = true;
          const batch = await dispatcher
            .claim(workerId, free, claimedCounts(), aheadPerSubscription)
            .finally(() => (claiming = false));
          claimed = batch.length;
          waiting.push(...batch);
          startWaiting();
        } catch (error) {
          logger.error({ workerId, error: describeError(error) }, "outbox sweep failed");
        }
      }
      heartbeat(claimed);
      if (!running) break;
      // A full batch may have left more due: claim again while slots are free. A short one took
      // every due delivery it could; what it couldn't (a subscription at its cap) wakes the loop when
      // a slot frees, a commit meanwhile set `woken`, and the rest (a retry coming due, an expired
      // lease) is the sweep's. Claiming again after a short batch found nothing, one wasted
      // statement per wake-up: on the embedded default, a fifth of a lead's database work.
      if (claimed > 0 && claimed === free && freeSlots() > 0) continue;
      // Woken (a commit, a slot freeing): claim one turn later, with whatever else is committing now.
      if (!woken) await sleep();
      if (running) await nextTurn();
    }
    // Stopping: what waits for a slot goes back, due at once for the next worker; what is under
    // way finishes and is recorded.
    for (const claimed of waiting.splice(0)) giveBack(claimed);
    while (unrecorded.size > 0) await Promise.all(unrecorded);
  })();

  return {
    workerId,
    sweepIntervalMs: interval,
    lastHeartbeatAt: () => lastHeartbeat,
    wake,
    async stop() {
      const wasRunning = running;
      if (wasRunning)
        logger.info(
          { workerId, inFlight: attempting(), waiting: waiting.length, recording: unrecorded.size - attempting() },
          "outbox worker stopping; finishing in-flight deliveries",
        );
      running = false;
      unsubscribe();
      sleeper?.();
      await loop;
      if (wasRunning) logger.info({ workerId }, "outbox worker stopped");
    },
  };
}
