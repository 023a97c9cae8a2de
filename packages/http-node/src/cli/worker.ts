import { startWorker } from "../process/worker.js";
import { noExtraArguments, type CliCommand } from "./command.js";
import { printNote } from "./output.js";
import { requireSecretKey } from "./secret-box.js";

/** Runs the outbox worker in this process until a signal; resolves once it stopped cleanly. */
export const workerCommand: CliCommand = {
  name: "worker",
  summary: "run the outbox worker and retention until SIGTERM/SIGINT (finishes in-flight deliveries)",
  usage: "vitrina worker [--config vitrina.config.mjs]",
  flags: {},
  prepare(args) {
    noExtraArguments(args, 0);
    return async (ctx) => {
      // Signing opens every subscription's sealed secret: without the server's key nothing could be sent.
      await requireSecretKey(ctx.storage.kind, ctx.storage.dataDir, ctx.config.secretBox, ctx.env);
      // The CLI has no messaging transport of yours (unless the config gives one): the stuck
      // first-message sweep runs in your server's worker, never here, where it would "send" into a log.
      const worker = startWorker(ctx.vitrina, {
        recoverFirstMessages: ctx.config.messaging !== undefined,
        // Run in process with a signal (tests, an embedding tool): it stops the worker, not the process's signals.
        handleSignals: ctx.signal === undefined,
      });
      if (ctx.signal !== undefined) {
        if (ctx.signal.aborted) void worker.stop();
        else ctx.signal.addEventListener("abort", () => void worker.stop(), { once: true });
      }
      const prefix = ctx.config.headerPrefix ?? "Vitrina";
      printNote(
        ctx.out,
        `vitrina worker ${worker.workerId} delivering from ${ctx.storage.description}, signing with ${prefix}-Signature; Ctrl-C to stop`,
      );
      await worker.stopped;
    };
  },
};
