import type { Server } from "node:http";
import { drainable } from "../server/drain-server.js";

export interface ShutdownOnSignalOptions {
  /** Your app's server (`app.listen(…)` in Express, `fastify.server`, `createServer(…)`). */
  server: Server;
  /** Vitrina's outbox worker in this process (`startWorker(vitrina, { handleSignals: false })`). */
  worker?: { stop(): Promise<void> };
  /** Closed last: after it, Vitrina routes that still get a request answer 503 `shutting_down`. */
  vitrina: { close(): Promise<void> };
  /** How long in-flight requests get before their connections are cut. Default 10 s. */
  timeoutMs?: number;
  /** Your own clean-up (database pools, queues), run after the worker stopped and before Vitrina closes. */
  onShutdown?: () => Promise<void> | void;
  /** Exit the process once everything is closed (code 0, or 1 if a step failed). Default true. */
  exit?: boolean;
  /** Default SIGTERM and SIGINT. */
  signals?: NodeJS.Signals[];
}

/**
 * The shutdown of "my server + Vitrina's worker" in one process, in the only safe order: stop
 * accepting and let in-flight requests finish (they may still use Vitrina), stop the worker
 * (in-flight deliveries record their outcome), run `onShutdown`, close Vitrina (its storage),
 * exit. A second SIGINT (Ctrl-C) during the shutdown ends the process at once (the usual
 * force-quit); a repeated SIGTERM doesn't, as it often comes twice (the process group's, and the one
 * pnpm or a supervisor passes on).
 *
 * ```ts
 * const server = app.listen(3000);
 * const worker = startWorker(vitrina, { handleSignals: false });
 * shutdownOnSignal({ server, worker, vitrina });
 * ```
 */
export function shutdownOnSignal(options: ShutdownOnSignalOptions): { shutdown(): Promise<void> } {
  const signals = options.signals ?? ["SIGTERM", "SIGINT"];
  // From now on, so that requests in flight when the signal comes close their connection once answered.
  const drain = drainable(options.server);
  let running: Promise<void> | null = null;
  const shutdown = () => {
    running ??= (async () => {
      // A second Ctrl-C ends the process at once (Node's default, with the listener gone); any other
      // signal repeated, SIGTERM above all (sent to the process group and passed on by pnpm or a
      // supervisor), stays handled and lets the shutdown finish.
      process.off("SIGINT", onSignal);
      let failed = false;
      const step = async (what: string, run: () => Promise<void> | void) => {
        try {
          await run();
        } catch (error) {
          failed = true;
          console.error(JSON.stringify({ level: "error", message: `shutdown: ${what} failed`, error: String(error) }));
        }
      };
      await step("draining the server", () => drain(options.timeoutMs ?? 10_000));
      await step("stopping the outbox worker", () => options.worker?.stop());
      await step("onShutdown", () => options.onShutdown?.());
      await step("closing Vitrina", () => options.vitrina.close());
      for (const signal of signals) process.off(signal, onSignal);
      if (options.exit ?? true) process.exit(failed ? 1 : 0);
    })();
    return running;
  };
  const onSignal = () => void shutdown();
  for (const signal of signals) process.on(signal, onSignal);
  return { shutdown };
}
