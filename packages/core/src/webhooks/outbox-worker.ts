import type { Logger } from "../ports/logger.js";
import type { CommitSignal } from "./commit-signal.js";
import type { OutboxDispatcher } from "./outbox-dispatcher.js";

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
  /** Runs a sweep now (also called after every commit that adds deliveries). */
  wake(): void;
  /** Stops claiming, lets in-flight deliveries finish and record their outcome, then resolves. */
  stop(): Promise<void>;
}

/**
 * The delivery loop: sweep, and sweep again at once while batches come back full or a wake-up
 * arrived meanwhile; otherwise sleep until the next sweep or wake-up. Errors (storage down) are
 * logged and the loop carries on at the next sweep.
 */
export function startOutboxWorker(
  dispatcher: OutboxDispatcher,
  signal: CommitSignal,
  logger: Logger,
  options: OutboxWorkerOptions = {},
): OutboxWorker {
  const workerId = options.workerId ?? `worker-${crypto.randomUUID().slice(0, 8)}`;
  const interval = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  let running = true;
  let woken = false;
  let sleeper: (() => void) | null = null;

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

  const loop = (async () => {
    while (running) {
      woken = false;
      let claimed = 0;
      try {
        claimed = await dispatcher.runOnce(workerId);
      } catch (error) {
        logger.error("outbox sweep failed", { workerId, error: String(error) });
      }
      if (!running) break;
      if (claimed >= dispatcher.batchSize || woken) continue;
      await sleep();
    }
  })();

  return {
    workerId,
    wake,
    async stop() {
      running = false;
      unsubscribe();
      sleeper?.();
      await loop;
    },
  };
}
