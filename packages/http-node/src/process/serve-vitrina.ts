import type { Vitrina } from "@vitrina/core";
import { serve, type RunningServer, type ServeOptions } from "../server/serve.js";
import { startWorker, type RunningWorker, type StartWorkerOptions } from "./worker.js";

export interface ServeVitrinaOptions extends ServeOptions {
  /** Run the outbox worker in the server process (default), with these options; `false` when a separate `vitrina worker` runs it. */
  worker?: false | Omit<StartWorkerOptions, "handleSignals" | "onShutdown">;
  /**
   * Close Vitrina (and with it the storage's pool or PGlite) last on shutdown. Default true: an open
   * pool keeps Node running after SIGTERM, and an open PGlite keeps its data directory locked. Set
   * false when something else closes it later.
   */
  closeOnShutdown?: boolean;
}

/**
 * Serves `vitrina.handler` and, by default, runs the outbox worker beside it. On shutdown the
 * server stops accepting and finishes requests, then the worker finishes in-flight deliveries,
 * then `onShutdown` runs, then Vitrina closes (its storage with it) unless `closeOnShutdown: false`.
 */
export async function serveVitrina(
  vitrina: Pick<Vitrina, "handler" | "outbox"> & Partial<Pick<Vitrina, "logger" | "close">>,
  options: ServeVitrinaOptions = {},
): Promise<RunningServer & { worker: RunningWorker | null }> {
  const worker = options.worker === false ? null : startWorker(vitrina, { ...options.worker, handleSignals: false });
  const server = await serve(vitrina.handler, {
    ...(vitrina.logger !== undefined && { logger: vitrina.logger }),
    ...options,
    onShutdown: async () => {
      vitrina.logger?.info({ url: server.url }, "vitrina server stopped accepting; stopping the worker");
      await worker?.stop();
      try {
        await options.onShutdown?.();
      } finally {
        if (options.closeOnShutdown ?? true) await vitrina.close?.();
      }
    },
  });
  vitrina.logger?.info({ url: server.url, worker: worker?.workerId ?? null }, "vitrina serving");
  return { ...server, worker };
}
