import { describeError } from "../logging/loggers.js";
import type { Logger } from "../ports/logger.js";

export interface PeriodicTask {
  name: string;
  intervalMs: number;
  run(): Promise<unknown>;
}

/**
 * Runs each task at start and then every `intervalMs` (never two runs of one task at once), next
 * to the outbox worker. A failing run is logged and retried at the next tick. `stop` cancels the
 * timers and waits for runs in progress.
 */
export function startPeriodicTasks(tasks: PeriodicTask[], logger: Logger): { stop(): Promise<void> } {
  let running = true;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const inProgress = new Set<Promise<void>>();
  const schedule = (task: PeriodicTask, delayMs: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = task
        .run()
        .then(
          () => undefined,
          (error: unknown) =>
            logger.error(
              { task: task.name, error: describeError(error) },
              `${task.name} failed; retrying at the next run`,
            ),
        )
        .finally(() => {
          inProgress.delete(run);
          if (running) schedule(task, task.intervalMs);
        });
      inProgress.add(run);
    }, delayMs);
    timers.add(timer);
  };
  for (const task of tasks) schedule(task, 0);
  return {
    async stop() {
      running = false;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(inProgress);
    },
  };
}
