import { isPGlite, isPool, type PoolLike, type PostgresDriver } from "./driver.js";

/** The NOTIFY channel of one schema's deliveries: a plain lower-case identifier, so LISTEN needs no quoting. */
export function deliveriesChannel(schema: string): string {
  return `vitrina_deliveries_${schema.toLowerCase().replace(/[^a-z0-9_]/g, "_")}`.slice(0, 63);
}

/**
 * Called by a repository after a statement that queued webhook deliveries: outside a transaction
 * the statement has committed, so other processes' workers are told at once; inside one, they are
 * told after the COMMIT (never for a rollback).
 */
export type DeliveriesQueued = () => void;

/**
 * Tells other processes' outbox workers that deliveries were committed: `pg_notify` as a statement
 * of its own, after the commit that queued them, with at most one in flight (calls meanwhile send
 * one more when it returns), so a burst of commits costs one or two.
 *
 * Why not inside the writing transaction, where it used to ride on the INSERT: at COMMIT a
 * transaction that ran NOTIFY takes PostgreSQL's database-wide notification-queue lock and holds it
 * through its commit's WAL flush, so every lead that queued a webhook committed one after another,
 * never in a group (pg_stat_activity showed lead commits waiting on `Lock: object`). A failed
 * announcement is logged and costs latency only: workers still sweep for due deliveries, and this
 * process's own worker is woken by the commit itself (core's commit signal).
 */
export function deliveryAnnouncer(db: PostgresDriver, channel: string, onError: (error: unknown) => void) {
  if (isPGlite(db)) return inProcessAnnouncer(db, channel);
  let inFlight = false;
  let again = false;
  let stopped = false;
  const send = () => {
    inFlight = true;
    again = false;
    db.query("SELECT pg_notify($1, '')", [channel]).then(sent, (error: unknown) => {
      if (!stopped) onError(error);
      sent();
    });
  };
  function sent() {
    inFlight = false;
    if (again && !stopped) send();
  }
  return {
    announce(): void {
      if (stopped) return;
      if (inFlight) again = true;
      else send();
    },
    /** Before the driver closes: nothing more is sent, and a failure of one in flight is not reported. */
    stop(): void {
      stopped = true;
    },
  };
}

/**
 * PGlite is one session in one process (its data directory is locked to it), so whoever could be
 * told of new deliveries listens on the same instance: they are told directly, with no NOTIFY
 * statement and no LISTEN. The statement cost about 0.8 ms of the process's own CPU per lead on the
 * embedded default (PGlite plans and runs it on the process's thread), for a listener in the same
 * process.
 */
const inProcessChannels = new WeakMap<object, Map<string, Set<() => void>>>();

function inProcessListeners(db: object, channel: string): Set<() => void> {
  let channels = inProcessChannels.get(db);
  if (channels === undefined) inProcessChannels.set(db, (channels = new Map()));
  let listeners = channels.get(channel);
  if (listeners === undefined) channels.set(channel, (listeners = new Set()));
  return listeners;
}

function inProcessAnnouncer(db: object, channel: string) {
  let stopped = false;
  const listeners = inProcessListeners(db, channel);
  return {
    announce(): void {
      // After the caller's own continuation, as a notification arriving from the database would be.
      if (!stopped) for (const listener of listeners) queueMicrotask(listener);
    },
    stop(): void {
      stopped = true;
    },
  };
}

type ListeningClient = Awaited<ReturnType<PoolLike["connect"]>>;
/** pg's Pool carries the Client class it makes connections with, and their settings. */
interface PgPoolInternals {
  Client?: new (options: unknown) => Omit<ListeningClient, "release"> & {
    connect(): Promise<unknown>;
    end(): Promise<unknown>;
  };
  options?: unknown;
}

/**
 * The connection a LISTEN holds for as long as it listens: on pg's Pool, a client of its own made
 * with the pool's settings, so the pool keeps all of its connections for statements (a pooled one
 * held by the in-process worker's LISTEN left a pool of 10 with 9 for requests); on any other
 * pool-shaped driver, one borrowed from it. `hangUp` closes or returns it (`error` destroys it).
 */
async function listeningConnection(
  pool: PoolLike,
): Promise<{ client: Omit<ListeningClient, "release">; hangUp(error?: Error | boolean): void }> {
  const { Client, options } = pool as PoolLike & PgPoolInternals;
  if (Client === undefined || options === undefined) {
    const client = await pool.connect();
    return { client, hangUp: (error) => client.release(error) };
  }
  const client = new Client(options);
  try {
    await client.connect();
  } catch (error) {
    void client.end().catch(() => {});
    throw error;
  }
  return { client, hangUp: () => void client.end().catch(() => {}) };
}

/** How long after a dropped LISTEN connection the first reconnect is tried; doubling up to the max. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 30_000;

/**
 * LISTEN on the deliveries channel: PGlite in process (see `inProcessAnnouncer`); a pg Pool on one dedicated
 * client, held for as long as the listener lives (a pooled query would lose the subscription).
 * A dropped connection (a restart or failover, a proxy's idle timeout, `idle_session_timeout`) is
 * replaced: it used to stay dropped for the life of the process, leaving other processes' commits
 * to the 30-second sweep. Reconnects back off from 100 ms to 30 s; once listening again, `listener`
 * is called once, since commits made while nobody listened were announced to no one. Only the
 * first connection's failure rejects; meanwhile workers still sweep.
 */
export function deliveriesListener(db: PostgresDriver, channel: string) {
  if (isPGlite(db)) {
    const listeners = inProcessListeners(db, channel);
    return async (listener: () => void) => {
      const each = () => listener(); // its own entry, even for a listener added twice
      listeners.add(each);
      return async () => void listeners.delete(each);
    };
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
      const { client, hangUp } = await listeningConnection(pool);
      let released = false;
      const release = (error?: Error | boolean) => {
        if (released) return false;
        released = true;
        hangUp(error);
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
