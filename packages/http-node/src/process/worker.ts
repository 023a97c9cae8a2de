import { defaultLogger, type OutboxWorker, type Vitrina, type WorkerOptions } from "@vitrina/core";
import { runShutdownHook } from "./shutdown-hook.js";

export interface StartWorkerOptions extends WorkerOptions {
  /** Stop gracefully on SIGTERM and SIGINT (finish in-flight deliveries). Default true. */
  handleSignals?: boolean;
  /** Runs after the worker stopped (e.g. close the storage). If it throws, the error goes to `vitrina.logger` and `stopped` still resolves. */
  onShutdown?: () => Promise<void> | void;
}

export interface RunningWorker extends OutboxWorker {
  /** Resolves once the worker has stopped and `onShutdown` ran. */
  readonly stopped: Promise<void>;
}

/**
 * Runs the outbox worker in this process: the body of `vitrina worker`, or alongside `serve`
 * (`serveVitrina` does that by default). Stopping lets in-flight deliveries finish and record
 * their outcome, so nothing is delivered twice because of a restart.
 *
 * ```ts
 * const worker = startWorker(vitrina, { onShutdown: () => vitrina.close() });
 * ```
 */
export function startWorker(
  vitrina: Pick<Vitrina, "outbox"> & Partial<Pick<Vitrina, "logger">>,
  options: StartWorkerOptions = {},
): RunningWorker {
  const worker = vitrina.outbox.startWorker(options);
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      process.off("SIGINT", onSignal);
      await worker.stop();
      await runShutdownHook(options.onShutdown, vitrina.logger ?? defaultLogger, { workerId: worker.workerId });
      process.off("SIGTERM", onSignal);
      resolveStopped();
    })();
    return stopping;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping !== null) return; // a repeated SIGTERM: the stop under way goes on
    vitrina.logger?.info({ workerId: worker.workerId, signal }, "outbox worker received a stop signal");
    void stop();
  };
  if (options.handleSignals ?? true) {
    // As in `serve`: a repeated SIGTERM doesn't cut the stop short; a second Ctrl-C does.
    process.on("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
  }
  return {
    workerId: worker.workerId,
    sweepIntervalMs: worker.sweepIntervalMs,
    lastHeartbeatAt: worker.lastHeartbeatAt,
    wake: worker.wake,
    stop,
    stopped,
  };
}
