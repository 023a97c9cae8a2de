import { defaultLogger, describeError, type Logger } from "@vitrina/core";

/** A pool that emits `error` (pg's Pool is an EventEmitter). */
interface EmitsErrors {
  on(event: "error", listener: (error: Error) => void): unknown;
  listenerCount(event: "error"): number;
}

const emitsErrors = (db: unknown): db is EmitsErrors =>
  typeof (db as EmitsErrors).on === "function" && typeof (db as EmitsErrors).listenerCount === "function";

/** One warn line per this many milliseconds at most: a restart drops every idle connection at once. */
export const IDLE_ERROR_LOG_INTERVAL_MS = 30_000;

/**
 * Keeps a dropped idle connection from killing the process. pg's Pool emits `error` when a client
 * it holds idle loses its connection (a server restart or failover, `pg_terminate_backend`, a
 * pooler's or the server's `idle_session_timeout`), and an EventEmitter's `error` with no listener
 * throws: the process exits with "Unhandled 'error' event". The pool has already discarded that
 * client, so there is nothing to do but say so: the next query opens a new connection, and while
 * the server is down queries fail as `storage_unavailable` (503), recovering without a restart.
 *
 * Attached only when the embedder's pool has no `error` listener of its own (theirs then decides).
 * Logged at warn, at most once per `IDLE_ERROR_LOG_INTERVAL_MS` with the count since the last line,
 * with the driver's message and code only: never the connection string.
 */
export function handleIdleClientErrors(db: unknown, logger: Logger = defaultLogger): void {
  if (!emitsErrors(db) || db.listenerCount("error") > 0) return;
  let lastLoggedAt = -Infinity;
  let unlogged = 0;
  db.on("error", (error) => {
    unlogged++;
    const now = Date.now();
    if (now - lastLoggedAt < IDLE_ERROR_LOG_INTERVAL_MS) return;
    lastLoggedAt = now;
    logger.warn(
      {
        code: (error as { code?: unknown }).code ?? null,
        cause: describeError(error),
        droppedConnections: unlogged,
      },
      "PostgreSQL dropped an idle pooled connection; the pool replaces it on the next query (requests meanwhile may answer 503)",
    );
    unlogged = 0;
  });
}
