import type { Vitrina } from "@vitrina/core";
import { serve, type RunningServer, type ServeOptions } from "./serve.js";
import { startWorker, type RunningWorker, type StartWorkerOptions } from "./worker.js";

export interface ServeVitrinaOptions extends ServeOptions {
  /** Run the outbox worker in the server process (default), with these options; `false` when a separate `vitrina worker` runs it. */
  worker?: false | Omit<StartWorkerOptions, "handleSignals" | "onShutdown">;
}

/**
 * Serves `vitrina.handler` and, by default, runs the outbox worker beside it. On shutdown the
 * server stops accepting and finishes requests, then the worker finishes in-flight deliveries,
 * then `onShutdown` runs.
 */
export async function serveVitrina(
  vitrina: Pick<Vitrina, "handler" | "outbox"> & Partial<Pick<Vitrina, "logger">>,
  options: ServeVitrinaOptions = {},
): Promise<RunningServer & { worker: RunningWorker | null }> {
  const worker = options.worker === false ? null : startWorker(vitrina, { ...options.worker, handleSignals: false });
  const server = await serve(vitrina.handler, {
    ...(vitrina.logger !== undefined && { logger: vitrina.logger }),
    ...options,
    onShutdown: async () => {
      vitrina.logger?.info({ url: server.url }, "vitrina server stopped accepting; stopping the worker");
      await worker?.stop();
      await options.onShutdown?.();
    },
  });
  vitrina.logger?.info({ url: server.url, worker: worker?.workerId ?? null }, "vitrina serving");
  return { ...server, worker };
}
