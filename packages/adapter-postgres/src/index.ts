import { adminRepositories } from "./repositories/admin.js";
import { leadOperationRepositories } from "./repositories/lead-operations.js";
import { defaultLogger, describeError, type Logger, type Storage, type StorageRepositories } from "@vitrina/core";
import { handleIdleClientErrors } from "./idle-client-errors.js";
import {
  checkStorableParams,
  closeDriver,
  isPgPool,
  isPGlite,
  runTransaction,
  toStorageError,
  type PoolLike,
  type PostgresDriver,
  type Queryable,
} from "./driver.js";
import { quoteIdent } from "./migrations/index.js";
import { preparedStatements } from "./prepared-statements.js";
import { pgliteStatements } from "./pglite-statements.js";
import { DEFAULT_ANALYZE_CHECK_MS, pgliteAutoAnalyze } from "./pglite-auto-analyze.js";
import { deliveriesChannel, deliveriesListener, deliveryAnnouncer, type DeliveriesQueued } from "./notifications.js";
import { capabilityRepositories } from "./repositories/capabilities.js";
import { contactRepositories } from "./repositories/contacts.js";
import { conversationRepositories } from "./repositories/conversations.js";
import { leadRepositories } from "./repositories/leads.js";
import { outboundRepository } from "./repositories/outbound.js";
import { retentionRepository } from "./repositories/retention.js";
import { personalDataRepository } from "./repositories/personal-data.js";
import { oauthRepositories } from "./repositories/oauth.js";
import { workspaceRepositories } from "./repositories/workspaces.js";
import { commerceRepositories } from "./repositories/commerce.js";
import { deliveryRepositories } from "./repositories/deliveries.js";
import { eventRepositories } from "./repositories/events.js";
import { subscriptionRepositories } from "./repositories/subscriptions.js";
import { whatsappRepositories } from "./repositories/whatsapp.js";

export { migrate, migrations, type Migration } from "./migrations/index.js";
export { handleIdleClientErrors } from "./idle-client-errors.js";
export type { PostgresDriver, Queryable, PoolLike, PGliteLike } from "./driver.js";

export interface PostgresStorageOptions {
  /** Schema holding Vitrina's tables; default `vitrina`. Run `migrate(db, { schema })` first. */
  schema?: string;
  /**
   * `SET LOCAL statement_timeout` for every transaction, in ms. For calls outside a transaction
   * set `statement_timeout` on the pg Pool's config instead (PGlite has no other sessions to guard).
   */
  statementTimeoutMs?: number;
  /** `close()` ends the pool / closes PGlite. Default true; false when you share the driver. */
  closeDriver?: boolean;
  /**
   * Send statements as named prepared statements, so PostgreSQL parses and plans each one once per
   * connection. Default true for a `pg.Pool` (recognised by its `Client` class, since the statement
   * goes as pg's `{ name, text, values }`) and for PGlite (through its wire protocol, see
   * `pglite-statements.ts`; an older PGlite without it runs them unnamed), off for any other
   * driver. Set false behind a pooler that can't keep prepared statements; `transactionPooler: true`
   * does.
   */
  preparedStatements?: boolean;
  /**
   * Where the adapter reports what the driver tells it outside any query: a pooled idle connection
   * the server dropped (see `idle-client-errors.ts`). Default: Vitrina's default logger.
   */
  logger?: Logger;
  /**
   * `db` reaches PostgreSQL through a transaction pooler (PgBouncer's `pool_mode = transaction`,
   * Supabase's transaction pooler, Neon's pooled endpoint), which hands each transaction, or each
   * statement outside one, whichever server connection is free. Nothing tied to a connection
   * survives that: a named prepared statement lands on a connection that has it already ("prepared
   * statement … already exists") or lacks it, and a LISTEN listens on a connection that is handed
   * to someone else as soon as it ends. So statements go unnamed (unless `preparedStatements` says
   * otherwise, for a pooler that keeps them, such as PgBouncer 1.21+ with `max_prepared_statements`),
   * and LISTEN runs on `listenPool` or not at all: without it the storage has no
   * `listenForDeliveries`, and workers in other processes learn of new deliveries at their sweep.
   * Transactions, with their `SET LOCAL` and advisory locks, hold one connection throughout.
   */
  transactionPooler?: boolean;
  /**
   * A pool on a direct connection (not through the pooler), used only for LISTEN: one client held
   * while a listener lives. `close()` ends it too, unless `closeDriver: false`.
   */
  listenPool?: PoolLike;
  /**
   * PGlite only (ignored on a server, whose autovacuum does it): ANALYZE Vitrina's tables once
   * they have changed as much as would make PostgreSQL's autovacuum analyze them (50 rows plus a
   * tenth of the table), checked every 10 s or every `everyMs`. PGlite has no autovacuum, and
   * without fresh statistics its prepared statements keep plans made for empty tables (see
   * `pglite-auto-analyze.ts`). Default true; false when the application runs ANALYZE itself.
   */
  autoAnalyze?: boolean | { everyMs: number };
}

/** How `repositories` sends statements: named (prepared) or not, and whether inside a transaction. */
interface StatementMode {
  prepared: ReturnType<typeof preparedStatements> | null;
  inTransaction: boolean;
}

/** Every repository bound to one queryable (the pool, PGlite, or a transaction's connection). */
function repositories(q: Queryable, s: string, queued: DeliveriesQueued, mode: StatementMode): StorageRepositories {
  // Driver errors become StorageErrors (unavailable / timeout), `conflict` or `invalid_argument`
  // (text PostgreSQL cannot store), with the cause kept.
  const { prepared, inTransaction } = mode;
  const mapped: Queryable = {
    query: async (text, params) => {
      checkStorableParams(params);
      const sent = prepared === null ? q.query(text, params) : prepared.run(q, text, params, inTransaction);
      return sent.catch((error: unknown) => Promise.reject(toStorageError(error)));
    },
  };
  return {
    ...workspaceRepositories(mapped, s),
    ...contactRepositories(mapped, s),
    ...leadRepositories(mapped, s),
    ...outboundRepository(mapped, s, queued),
    ...conversationRepositories(mapped, s),
    ...oauthRepositories(mapped, s),
    ...capabilityRepositories(mapped, s),
    ...commerceRepositories(mapped, s),
    ...subscriptionRepositories(mapped, s),
    ...eventRepositories(mapped, s, queued),
    ...deliveryRepositories(mapped, s, queued),
    ...retentionRepository(mapped, s),
    ...adminRepositories(mapped, s),
    ...whatsappRepositories(mapped, s),
    ...personalDataRepository(mapped, s),
    ...leadOperationRepositories(mapped, s),
  };
}

/** How statements are named on `db`, when `wanted`: pg's config objects, PGlite's protocol, or not at all. */
function statementNaming(db: PostgresDriver, wanted: boolean): StatementMode["prepared"] {
  if (!wanted) return null;
  if (isPgPool(db)) return preparedStatements();
  const onPGlite = isPGlite(db) ? pgliteStatements(db) : undefined;
  return onPGlite ? preparedStatements(onPGlite) : null;
}

/** The statistics keeper PGlite needs (see `pglite-auto-analyze.ts`); none on a server or when turned off. */
function autoAnalyzeOn(db: PostgresDriver, options: PostgresStorageOptions, logger: Logger) {
  const wanted = options.autoAnalyze ?? true;
  if (!isPGlite(db) || wanted === false) return null;
  return pgliteAutoAnalyze(db, options.schema ?? "vitrina", {
    everyMs: wanted === true ? DEFAULT_ANALYZE_CHECK_MS : wanted.everyMs,
    onError: (error) =>
      logger.warn(
        { error: describeError(error) },
        "ANALYZE of the embedded database's tables failed; its query plans may stay stale until the next check",
      ),
  });
}

/**
 * Vitrina's Storage on PostgreSQL. `db` is anything with `query(text, params)`: a `pg.Pool` for a
 * server (transactions check out a client), or a PGlite instance for an embedded database.
 *
 * ```ts
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await migrate(pool);
 * const storage = postgresStorage(pool);
 * ```
 */
export function postgresStorage(db: PostgresDriver, options: PostgresStorageOptions = {}): Storage {
  const s = quoteIdent(options.schema ?? "vitrina");
  // Before anything else can happen: an idle connection dropped by the server must not end the process.
  handleIdleClientErrors(db, options.logger);
  const channel = deliveriesChannel(options.schema ?? "vitrina");
  const pooled = options.transactionPooler ?? false;
  const listenOn = options.listenPool ?? (pooled ? undefined : db);
  const listenForDeliveries = listenOn === undefined ? undefined : deliveriesListener(listenOn, channel);
  const prepared = statementNaming(db, options.preparedStatements ?? !pooled);
  // A transaction's repositories, kept per connection: they hold nothing but the connection, and
  // building the whole set (about a hundred methods) for every transaction cost some 55 µs of CPU.
  // A pg Pool hands out the same few clients again; PGlite's transaction object is new each time.
  const inTransaction = new WeakMap<Queryable, StorageRepositories>();
  let closed: Promise<void> | undefined;
  const logger = options.logger ?? defaultLogger;
  const autoAnalyze = autoAnalyzeOn(db, options, logger);
  const announcer = deliveryAnnouncer(db, channel, (error) =>
    logger.warn(
      { error: describeError(error) },
      "telling other workers about new deliveries failed; they pick them up at their next sweep",
    ),
  );
  /** Per connection, the transaction running on it now: whether it queued deliveries. */
  const runningOn = new WeakMap<Queryable, { queued: boolean }>();
  const transactionRepositories = (q: Queryable) => {
    let bound = inTransaction.get(q);
    if (bound === undefined) {
      const queued = () => void (runningOn.get(q)!.queued = true);
      inTransaction.set(q, (bound = repositories(q, s, queued, { prepared, inTransaction: true })));
    }
    return bound;
  };
  return {
    ...repositories(db, s, announcer.announce, { prepared, inTransaction: false }),
    async transaction(work) {
      // Its own record, not the connection's: once released, the connection may run the next
      // transaction before this one's caller reads whether it queued deliveries.
      const run = { queued: false };
      const result = await runTransaction(db, options.statementTimeoutMs, (q) => {
        run.queued = false; // a retried attempt starts over
        runningOn.set(q, run);
        return work(transactionRepositories(q));
      });
      if (run.queued) announcer.announce();
      return result;
    },
    ...(listenForDeliveries ? { listenForDeliveries } : {}),
    async ping() {
      try {
        await db.query("SELECT 1");
      } catch (error) {
        throw toStorageError(error);
      }
    },
    // Once: a server's shutdown and the app may both close it, and a pg Pool refuses a second end().
    close() {
      announcer.stop();
      autoAnalyze?.stop();
      if (!(options.closeDriver ?? true)) return Promise.resolve();
      closed ??= Promise.all([closeDriver(db), options.listenPool && closeDriver(options.listenPool)]).then(() => {});
      return closed;
    },
  };
}
