import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { defaultLogger, type Logger } from "@vitrina/core";
import { drainable } from "./drain-server.js";
import { toNodeListener, type FetchHandler, type NodeListenerOptions } from "./listener.js";
import { runShutdownHook } from "../process/shutdown-hook.js";

export interface ServeOptions extends NodeListenerOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1`; use `0.0.0.0` to listen on every interface. */
  host?: string;
  /** Stop gracefully on SIGTERM and SIGINT. Default true. */
  handleSignals?: boolean;
  /** How long in-flight requests get on shutdown before connections are cut. Default 10 s. */
  shutdownTimeoutMs?: number;
  /**
   * Runs after the server stopped accepting and finished in-flight requests (e.g. stop a worker,
   * close storage). If it throws, the error is logged to `logger` and `close()` still resolves.
   */
  onShutdown?: () => Promise<void> | void;
  /** Where a failing `onShutdown` is reported. Default: Vitrina's default logger (JSON on stderr); `serveVitrina` passes `vitrina.logger`. */
  logger?: Logger;
}

export interface RunningServer {
  server: Server;
  /** `http://host:port`, with the real port when 0 was asked. */
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to the timeout), then runs onShutdown. */
  close(): Promise<void>;
}

/**
 * Serves a fetch-style handler on `node:http`.
 *
 * ```ts
 * const { url } = await serve(vitrina.handler, { port: 8787 });
 * ```
 */
export async function serve(handler: FetchHandler, options: ServeOptions = {}): Promise<RunningServer> {
  const server = createServer(toNodeListener(handler, options));
  server.keepAliveTimeout = 5_000;
  const drain = drainable(server);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}`;

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await drain(options.shutdownTimeoutMs ?? 10_000);
      await runShutdownHook(options.onShutdown, options.logger ?? defaultLogger, { url });
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
    })();
    return closing;
  };
  const onSignal = () => void close();
  if (options.handleSignals ?? true) {
    // SIGTERM stays handled until the shutdown is over: it often comes twice (to the process group,
    // and passed on by pnpm or a supervisor), and a second one must not end the shutdown half-way.
    // A second Ctrl-C still does (Node's default once this listener is gone): the usual force-quit.
    process.on("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
  }
  return { server, url, port, close };
}
