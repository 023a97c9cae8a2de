import { VitrinaError } from "../errors.js";
import { reconcileFirstMessages, type FirstMessageRecoverySettings } from "../leads/reconcile-first-messages.js";
import type { SendFirstMessageDeps } from "../leads/send-first-message.js";
import type { OutboxWorker, OutboxWorkerOptions } from "../webhooks/outbox-worker.js";
import { startPeriodicTasks, type PeriodicTask } from "./periodic-tasks.js";
import { runRetention, type RetentionReport, type RetentionSettings } from "./retention.js";

/** Options of `vitrina.outbox.startWorker`: the outbox worker's, and which housekeeping runs with it. */
export interface WorkerOptions extends OutboxWorkerOptions {
  /**
   * Run the stuck first-message sweep in this worker. Default true. Turn it off in a process whose
   * messaging transport is not the real one (the `vitrina worker` CLI): the sweep sends through it.
   */
  recoverFirstMessages?: boolean;
}

/**
 * Housekeeping the worker runs besides deliveries: retention (unless `retention: false`) and the
 * sweep that settles first messages a crash left `queued`. Also callable by hand (`vitrina cleanup`).
 */
export function createMaintenance(
  deps: SendFirstMessageDeps,
  retention: RetentionSettings | null,
  recovery: FirstMessageRecoverySettings,
) {
  const maintenance = {
    /** The resolved retention settings, or null when retention is off. */
    retention,
    /** One retention run now (`dryRun` only counts). Runs with the defaults even when the worker's retention is off. */
    async runRetention(options: { dryRun?: boolean; settings?: RetentionSettings } = {}): Promise<RetentionReport> {
      const settings = options.settings ?? retention;
      if (settings === null) {
        throw new VitrinaError(
          "invalid_argument",
          "retention is off (retention: false); pass settings to run it by hand",
          {
            reasons: [{ field: "retention", reason: "is false" }],
          },
        );
      }
      return runRetention(deps, settings, options);
    },
    /** Settles stuck first messages until a batch comes back short. */
    async reconcileFirstMessages() {
      const total = { outcomeUnknown: 0, sentLate: 0, abandoned: 0 };
      for (;;) {
        const { examined, ...batch } = await reconcileFirstMessages(deps, recovery);
        total.outcomeUnknown += batch.outcomeUnknown;
        total.sentLate += batch.sentLate;
        total.abandoned += batch.abandoned;
        // A batch whose messages all settled elsewhere makes no progress here: stop rather than spin.
        if (examined < 100 || batch.outcomeUnknown + batch.sentLate + batch.abandoned === 0) return total;
      }
    },
    /** Wraps an outbox worker so its `stop` also stops the periodic maintenance started with it. */
    attachTo(worker: OutboxWorker, options: WorkerOptions = {}): OutboxWorker {
      const tasks: PeriodicTask[] = [];
      if (options.recoverFirstMessages ?? true) {
        tasks.push({
          name: "first-message recovery",
          intervalMs: recovery.intervalMs,
          run: () => maintenance.reconcileFirstMessages(),
        });
      }
      if (retention !== null)
        tasks.push({ name: "retention", intervalMs: retention.intervalMs, run: () => maintenance.runRetention() });
      const periodic = startPeriodicTasks(tasks, deps.logger);
      return {
        ...worker,
        async stop() {
          await periodic.stop();
          await worker.stop();
        },
      };
    },
  };
  return maintenance;
}
export type Maintenance = ReturnType<typeof createMaintenance>;
