import type { Server } from "node:http";

/**
 * Stops accepting connections and resolves once in-flight requests finished; after `timeoutMs`
 * the connections still open are cut so a stuck client can't hold the shutdown forever.
 */
export async function drainServer(server: Server, timeoutMs: number): Promise<void> {
  const timeout = setTimeout(() => server.closeAllConnections(), timeoutMs);
  timeout.unref();
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive sockets with no request in flight would otherwise hold `close` open.
  server.closeIdleConnections();
  await stopped;
  clearTimeout(timeout);
}
