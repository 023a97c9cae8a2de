import { isPGlite, isPool, type PostgresDriver } from "./driver.js";

/** The NOTIFY channel of one schema's deliveries: a plain lower-case identifier, so LISTEN needs no quoting. */
export function deliveriesChannel(schema: string): string {
  return `vitrina_deliveries_${schema.toLowerCase().replace(/[^a-z0-9_]/g, "_")}`.slice(0, 63);
}

/** How long after a dropped LISTEN connection the first reconnect is tried; doubling up to the max. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 30_000;

/**
 * LISTEN on the deliveries channel: PGlite through its own `listen`; a pg Pool on one dedicated
 * client, held for as long as the listener lives (a pooled query would lose the subscription).
 * A dropped connection (a restart or failover, a proxy's idle timeout, `idle_session_timeout`) is
 * replaced: it used to stay dropped for the life of the process, leaving other processes' commits
 * to the 30-second sweep. Reconnects back off from 100 ms to 30 s; once listening again, `listener`
 * is called once, since commits made while nobody listened were announced to no one. Only the
 * first connection's failure rejects; meanwhile workers still sweep.
 */
export function deliveriesListener(db: PostgresDriver, channel: string) {
  if (isPGlite(db) && db.listen) {
    const listen = db.listen.bind(db);
    return (listener: () => void) => listen(channel, () => listener());
  }
  if (!isPool(db)) return undefined;
  const pool = db;
  return async (listener: () => void) => {
    let listening = false; // the first connection listened: from then on, drops are reconnected
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = RECONNECT_FIRST_MS;
    /** The connection listening now, and how to hand it back exactly once. */
    let current: { unlisten: () => Promise<void> } | null = null;

    async function open(): Promise<void> {
      const client = await pool.connect();
      let released = false;
      const release = (error?: Error | boolean) => {
        if (released) return false;
        released = true;
        client.release(error);
        return true;
      };
      const connection = {
        unlisten: () =>
          client.query(`UNLISTEN ${channel}`).then(
            () => void release(),
            (error: Error) => void release(error),
          ),
      };
      // A dropped connection is destroyed, never pooled again, and replaced.
      const drop = (error?: unknown) => {
        if (!release(error instanceof Error ? error : true)) return;
        if (current === connection) current = null;
        if (listening && !stopped) reconnectLater();
      };
      client.on?.("notification", (message: { channel?: string }) => {
        if (message.channel === channel) listener();
      });
      client.on?.("error", drop);
      client.on?.("end", () => drop());
      try {
        await client.query(`LISTEN ${channel}`);
      } catch (error) {
        drop(error);
        throw error;
      }
      if (released) throw new Error("the listening connection dropped as it started listening");
      if (stopped) return void release(true); // unlistened while this one was connecting
      current = connection;
    }

    function reconnectLater() {
      if (retry !== undefined) return;
      retry = setTimeout(() => {
        open().then(
          () => {
            retry = undefined;
            delay = RECONNECT_FIRST_MS;
            // Commits made while no connection listened were announced to no one.
            if (!stopped) listener();
          },
          () => {
            retry = undefined;
            delay = Math.min(delay * 2, RECONNECT_MAX_MS);
            if (!stopped && current === null) reconnectLater();
          },
        );
      }, delay);
      // A reconnect waiting must not keep the process alive on its own.
      (retry as { unref?: () => void }).unref?.();
    }

    await open();
    listening = true;
    return async () => {
      stopped = true;
      clearTimeout(retry);
      const connection = current;
      current = null;
      await connection?.unlisten();
    };
  };
}
