import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { drainable } from "./drain-server.js";
import { toNodeListener, type FetchHandler, type NodeListenerOptions } from "./listener.js";

export interface ServeOptions extends NodeListenerOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1`; use `0.0.0.0` to listen on every interface. */
  host?: string;
  /** Stop gracefully on SIGTERM and SIGINT. Default true. */
  handleSignals?: boolean;
  /** How long in-flight requests get on shutdown before connections are cut. Default 10 s. */
  shutdownTimeoutMs?: number;
  /** Runs after the server stopped accepting and finished in-flight requests (e.g. stop a worker, close storage). */
  onShutdown?: () => Promise<void> | void;
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

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await drain(options.shutdownTimeoutMs ?? 10_000);
      await options.onShutdown?.();
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
    })();
    return closing;
  };
  const onSignal = () => void close();
  if (options.handleSignals ?? true) {
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
  }
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return { server, url: `http://${shownHost}:${port}`, port, close };
}
