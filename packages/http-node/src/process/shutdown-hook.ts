import { describeError, type LogFields, type Logger } from "@vitrina/core";

/**
 * Runs the embedder's `onShutdown` and reports a throw instead of passing it on, so the rest of
 * the shutdown runs. Passed on, it rejected a promise started from a SIGTERM handler that nobody
 * awaited: an unhandled rejection, which ends Node before the shutdown finished, and
 * `startWorker`'s `stopped` never resolved.
 */
export async function runShutdownHook(
  hook: (() => Promise<void> | void) | undefined,
  logger: Logger,
  context: LogFields,
): Promise<void> {
  try {
    await hook?.();
  } catch (error) {
    logger.error({ ...context, error: describeError(error) }, "onShutdown failed; the shutdown went on without it");
  }
}
