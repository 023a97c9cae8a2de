import type { Server, ServerResponse } from "node:http";

/** Stops accepting, lets in-flight requests finish (up to `timeoutMs`), then resolves. */
export type DrainServer = (timeoutMs: number) => Promise<void>;

/**
 * Follows the responses in flight on `server` from now on, and returns what drains it: stop
 * accepting connections and resolve once in-flight requests finished; after `timeoutMs` the
 * connections still open are cut so a stuck client can't hold the shutdown forever.
 *
 * Call it when the server is created, not at shutdown: a keep-alive connection whose request is
 * in flight when the drain starts would otherwise be answered `Connection: keep-alive` and stay
 * open (idle until the keep-alive timeout, or kept busy for good by a client sending one request
 * after another) until the timeout cut it, mid-request. Each response in flight, and each request
 * arriving on an open connection during the drain, is answered with `Connection: close` instead,
 * so the client knows not to send another on it and Node closes it once the answer is out.
 */
export function drainable(server: Server): DrainServer {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.on("request", (_req, res: ServerResponse) => {
    if (draining) closeConnectionAfter(res);
    inFlight.add(res);
    res.once("close", () => {
      inFlight.delete(res);
      // Answered before it could be marked (its headers were out when the drain began): its
      // connection is idle now, and nothing else would close it before the keep-alive timeout.
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
  });
  return async (timeoutMs) => {
    draining = true;
    for (const res of inFlight) closeConnectionAfter(res);
    const timeout = setTimeout(() => server.closeAllConnections(), timeoutMs);
    timeout.unref();
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive sockets with no request in flight would otherwise hold `close` open.
    server.closeIdleConnections();
    await stopped;
    clearTimeout(timeout);
  };
}

/** Answers `res` with `Connection: close` (if its headers aren't out yet), so Node closes the connection after it. */
function closeConnectionAfter(res: ServerResponse): void {
  if (!res.headersSent) res.shouldKeepAlive = false;
}
