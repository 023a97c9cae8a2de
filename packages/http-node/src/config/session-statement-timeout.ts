import type { Logger } from "@vitrina/core";

/** The slice of a pg client this needs. */
interface SessionClient {
  query(text: string): Promise<unknown>;
}

/**
 * How a pg Pool behind a session pooler gives each new server connection its statement timeout
 * (PgBouncer refuses `statement_timeout` as a startup parameter, so it is a `SET` once connected).
 *
 * `onConnect` is pg-pool's hook (pg-pool 3.13, pg 8.20, and later): the pool awaits it before it
 * hands the new connection to anyone, and a `SET` that fails fails that checkout instead of leaving
 * a connection without its bound. Setting it from the pool's `connect` event instead, as older
 * pools allow, queued the caller's first statement behind the `SET` on the same connection, which
 * pg 8 warns about and pg 9 refuses. `onConnectEvent` is that event's listener, kept for pools
 * older than the hook: it sets the timeout only on connections the hook did not see.
 */
export function sessionStatementTimeout(statementTimeoutMs: number, logger: Logger) {
  const statement = `SET statement_timeout = ${Math.floor(statementTimeoutMs)}`;
  const setUp = new WeakSet<object>();
  return {
    async onConnect(client: SessionClient): Promise<void> {
      await client.query(statement);
      setUp.add(client);
    },
    onConnectEvent(client: SessionClient): void {
      if (setUp.has(client)) return;
      setUp.add(client);
      client.query(statement).catch((error: unknown) => {
        // The driver's code and message only: never the connection string.
        const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
        logger.warn(
          { code: code ?? null, cause: typeof message === "string" ? message : String(error) },
          "could not set statement_timeout on a new PostgreSQL connection; its statements run without that bound",
        );
      });
    },
  };
}
