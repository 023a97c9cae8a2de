import { ConflictError, StorageError, VitrinaError } from "@vitrina/core";
import { isStorableText, UNSTORABLE_TEXT_REASON } from "@vitrina/core/storage";

/** The least a PostgreSQL driver must do: run one parameterised statement. */
export interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: any[]; rowCount?: number | null; affectedRows?: number }>;
}

/** A `pg.Pool`: hands out dedicated clients for transactions. */
export interface PoolLike extends Queryable {
  connect(): Promise<
    Queryable & {
      release(error?: Error | boolean): void;
      on?(event: string, listener: (...args: any[]) => void): unknown;
    }
  >;
  end?(): Promise<void>;
}

/**
 * A PGlite instance: one connection, so transactions go through its own `transaction()`, which
 * queues other queries meanwhile. Running `BEGIN` by hand on PGlite while other requests are in
 * flight would interleave their statements into our transaction.
 */
export interface PGliteLike extends Queryable {
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  listen?(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  close?(): Promise<void>;
}

/** Anything with `query(text, params) → { rows, rowCount }`: a pg Pool, a pg Client, PGlite. */
export type PostgresDriver = PoolLike | PGliteLike | Queryable;

export function isPool(db: PostgresDriver): db is PoolLike {
  return typeof (db as PoolLike).connect === "function" && typeof (db as PGliteLike).transaction !== "function";
}

/**
 * A `pg.Pool` itself (it carries its `Client` class), not just something pool-shaped: only pg's
 * clients are known to take a `{ name, text, values }` statement, which prepared statements need.
 */
export function isPgPool(db: PostgresDriver): db is PoolLike {
  return isPool(db) && typeof (db as { Client?: unknown }).Client === "function";
}

export function isPGlite(db: PostgresDriver): db is PGliteLike {
  return typeof (db as PGliteLike).transaction === "function";
}

export function affected(result: { rowCount?: number | null; affectedRows?: number }): number {
  return result.rowCount ?? result.affectedRows ?? 0;
}

/**
 * Text the server refuses: 22021 character_not_in_repertoire (U+0000 in a text parameter),
 * 22P05 untranslatable_character (`\u0000` in jsonb), 22P02 invalid_text_representation (a lone
 * surrogate escaped in jsonb). Bad input, so the caller's error, not a 500.
 */
const UNSTORABLE_TEXT_SQLSTATES = new Set(["22021", "22P05", "22P02"]);

function unstorableText(cause?: unknown): VitrinaError {
  return new VitrinaError("invalid_argument", `the database cannot store this text: it ${UNSTORABLE_TEXT_REASON}`, {
    reasons: [{ field: "", reason: UNSTORABLE_TEXT_REASON }],
    cause,
  });
}

/**
 * Refuses a statement whose text parameters hold U+0000 or a lone surrogate before it is sent.
 * The server would refuse U+0000 anyway, but drivers silently turn a lone surrogate into U+FFFD:
 * a stored value that differs from the one written, and a lookup that matches the wrong row.
 */
export function checkStorableParams(params: unknown[] | undefined): void {
  for (const param of params ?? []) if (typeof param === "string" && !isStorableText(param)) throw unstorableText();
}

/**
 * What each unique constraint protects, in the words the memory adapter uses for the same rule.
 * A conflict's message reaches the 409 body, so it never names the constraint (a schema detail)
 * nor the clashing value (a phone, a key hash); PostgreSQL's error stays the `cause` for the log.
 */
const UNIQUE_RULES: Record<string, string> = {
  contacts_phone_key: "another contact already has this phone",
  connectors_system_id_key: "a connector with this system identifier already exists in this workspace",
  lead_events_source_key: "this lead was already received from this connector",
  conversations_one_active_whatsapp_key: "this contact already has an active WhatsApp conversation",
  catalog_items_sku_key: "another catalog item already has this SKU",
  idempotency_attempts_key: "an attempt with this idempotency key already exists",
  orders_quote_key: "this quote already has an order",
  payments_reference_key: "a payment with this provider reference was already recorded",
  webhook_deliveries_event_subscription_key: "this event already has a delivery to this subscription",
  whatsapp_channels_phone_number_key: "another workspace's WhatsApp channel already has this phone number id",
};
/** A primary key or any other unique rule: an id given twice. */
const SAME_KEY = "a record with the same key already exists";

/**
 * SQLSTATEs and socket errors mapped to what a caller can act on. The outage messages are fixed
 * text: every error body repeats its error's message, and the driver's ("connect ECONNREFUSED
 * 10.0.3.12:5432", "getaddrinfo ENOTFOUND db.internal") names the database's address to whoever
 * called. It stays the `cause`, which the error log line prints.
 */
export function toStorageError(error: unknown): unknown {
  if (error instanceof VitrinaError) return error;
  const e = error as { code?: string; message?: string; constraint?: string };
  const code = e?.code ?? "";
  if (code === "23505") return new ConflictError(UNIQUE_RULES[e.constraint ?? ""] ?? SAME_KEY, { cause: error });
  if (UNSTORABLE_TEXT_SQLSTATES.has(code)) return unstorableText(error);
  if (code === "57014")
    return new StorageError("storage_timeout", "the database cancelled a statement that ran past statement_timeout", {
      cause: error,
    });
  if (
    /^(08|53|57P)/.test(code) ||
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH"].includes(code)
  ) {
    return new StorageError("storage_unavailable", "the database is unavailable", { cause: error });
  }
  if (/timeout/i.test(e?.message ?? "")) {
    return new StorageError("storage_timeout", "the database did not answer in time", { cause: error });
  }
  return error;
}

/** Runs `work` in one transaction on a dedicated connection, with SET LOCAL statement_timeout. */
export async function runTransaction<T>(
  db: PostgresDriver,
  statementTimeoutMs: number | undefined,
  work: (q: Queryable) => Promise<T>,
): Promise<T> {
  const prelude = async (q: Queryable) => {
    if (statementTimeoutMs !== undefined)
      await q.query(`SET LOCAL statement_timeout = ${Math.floor(statementTimeoutMs)}`);
  };
  try {
    if (isPGlite(db)) {
      return await db.transaction(async (tx) => {
        await prelude(tx);
        return work(tx);
      });
    }
    if (isPool(db)) {
      const client = await db.connect();
      try {
        await client.query("BEGIN");
        await prelude(client);
        const result = await work(client);
        await client.query("COMMIT");
        client.release();
        return result;
      } catch (error) {
        // A failed ROLLBACK means the connection is broken: destroy it rather than reuse it.
        await client.query("ROLLBACK").then(
          () => client.release(),
          (rollbackError: Error) => client.release(rollbackError),
        );
        throw error;
      }
    }
    throw new VitrinaError(
      "invalid_argument",
      "transactions need a pg Pool (connect()) or a PGlite instance (transaction())",
    );
  } catch (error) {
    throw toStorageError(error);
  }
}

/** Releases the driver: `pool.end()` or `pglite.close()`. */
export async function closeDriver(db: PostgresDriver): Promise<void> {
  if (isPGlite(db)) await db.close?.();
  else if (isPool(db)) await db.end?.();
}
