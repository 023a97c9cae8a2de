import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { defaultLogger, VitrinaError, type Logger, type Storage } from "@vitrina/core";
import { databaseUrlsFromEnv } from "./database-pooler.js";
import { lockDataDir } from "./data-dir-lock.js";
import { sessionStatementTimeout } from "./session-statement-timeout.js";

export interface ConfiguredStorage {
  storage: Storage;
  /** Which storage was picked: only `pglite` (local, embedded) may keep a generated secret key. */
  kind: "memory" | "postgresql" | "pglite";
  /** For the startup line, e.g. `PostgreSQL postgres@127.0.0.1:5432/test` (never a password). */
  description: string;
  persistent: boolean;
  /** Where local state (PGlite files, the generated secret key) lives. */
  dataDir: string;
}

export interface StorageFromEnvOptions {
  /** Force the in-memory adapter (the `--memory` flag). */
  memory?: boolean;
  /** PostgreSQL schema holding Vitrina's tables (PostgreSQL and PGlite). Default `VITRINA_DB_SCHEMA`, else `vitrina`. */
  schema?: string;
  env?: Record<string, string | undefined>;
  /** Where migrations say what they applied (info level). Default: Vitrina's default logger. */
  logger?: Logger;
}

function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.username ? `${decodeURIComponent(u.username)}@` : ""}${u.host}${u.pathname}`;
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}

/**
 * A positive whole number from the environment variable `name`, or `fallback` when it is unset.
 * Anything else is refused naming the variable: `Number("10s")` is NaN, which the driver would pass
 * on (as a setting PostgreSQL rejects at the first query, or as a pool of NaN), far from its cause.
 */
function positiveWholeNumberFrom(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  { unit, example }: { unit: string; example: string },
): number {
  const value = env[name];
  if (value === undefined || value === "") return fallback;
  if (/^[1-9]\d*$/.test(value.trim())) return Number(value.trim());
  const reason = `must be a positive whole number${unit}`;
  throw new VitrinaError("invalid_argument", `${name} ${reason} (e.g. ${example}), got "${value}"`, {
    reasons: [{ field: name, reason }],
  });
}

/**
 * PostgreSQL connections the pool opens at most (`VITRINA_DB_POOL_SIZE`). pg's default, 10, stays
 * the default: the LISTEN of an in-process worker no longer takes one of them, neither the lead
 * path nor the worker holds one across anything but its own statements, and on the deployed bench
 * (`pnpm bench deployed`) a pool of 16 was not faster than 10.
 */
export const DEFAULT_POOL_SIZE = 10;

/**
 * pg parses the URL at the first connect and says only "Invalid URL": name the variable, and never
 * echo the URL (it holds the password).
 */
async function rethrowInvalidUrl<T>(field: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_INVALID_URL") throw error;
    throw new VitrinaError(
      "invalid_argument",
      `${field} is not a valid URL: expected postgres://user:password@host:5432/database, with characters such as @ : / # ? in the user or password percent-encoded`,
      { reasons: [{ field, reason: "not a valid URL" }] },
    );
  }
}

/**
 * Loads an optional peer dependency, or fails with `invalid_argument` naming the package to install,
 * rather than Node's raw ERR_MODULE_NOT_FOUND stack.
 */
export async function importOptional<T>(load: () => Promise<T>, packageName: string, neededFor: string): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") throw cause;
    throw new VitrinaError(
      "invalid_argument",
      `${neededFor} needs the optional package ${packageName}: install it (pnpm add ${packageName}), or set DATABASE_URL, or use --memory`,
      { cause },
    );
  }
}

/**
 * Picks storage the way the CLI and the example server document it:
 * `--memory` or `VITRINA_STORAGE=memory` → in memory; `DATABASE_URL` → PostgreSQL (pg Pool);
 * otherwise embedded PGlite persisted in `VITRINA_DATA_DIR` (default `.vitrina/`). Migrates first.
 * PGlite locks its data directory for this process until `storage.close()` (or exit): a second
 * process opening it fails with `storage_unavailable` naming the holder.
 */
export async function storageFromEnv(options: StorageFromEnvOptions = {}): Promise<ConfiguredStorage> {
  const env = options.env ?? process.env;
  const dataDir = resolve(env.VITRINA_DATA_DIR || ".vitrina");
  if (options.memory || env.VITRINA_STORAGE === "memory") {
    const { memoryStorage } = await import("@vitrina/adapter-memory");
    return {
      storage: memoryStorage(),
      kind: "memory",
      description: "memory (nothing survives a restart)",
      persistent: false,
      dataDir,
    };
  }
  const postgres = await importOptional(
    () => import("@vitrina/adapter-postgres"),
    "@vitrina/adapter-postgres",
    "persistent storage (or use --memory)",
  );
  const statementTimeoutMs = positiveWholeNumberFrom(env, "VITRINA_STATEMENT_TIMEOUT_MS", 10_000, {
    unit: " of milliseconds",
    example: "10000",
  });
  const schema = options.schema ?? (env.VITRINA_DB_SCHEMA || undefined);
  const inSchema = schema === undefined ? "" : ` (schema ${schema})`;
  if (env.DATABASE_URL) {
    const { default: pg } = await importOptional(() => import("pg"), "pg", "DATABASE_URL (PostgreSQL)");
    const { url, pooler, directUrl } = await rethrowInvalidUrl("DATABASE_URL", () =>
      databaseUrlsFromEnv(env, env.DATABASE_URL!),
    );
    // In session mode the server connection stays this client's until it disconnects, so a session
    // SET holds. In transaction mode it would stick to a shared server connection: there only
    // transactions get one (`SET LOCAL`, below), and single statements the role's own setting.
    const session =
      pooler === "session" ? sessionStatementTimeout(statementTimeoutMs, options.logger ?? defaultLogger) : null;
    const pool = new pg.Pool({
      connectionString: url,
      max: positiveWholeNumberFrom(env, "VITRINA_DB_POOL_SIZE", DEFAULT_POOL_SIZE, { unit: "", example: "10" }),
      connectionTimeoutMillis: 5_000,
      // PgBouncer refuses statement_timeout as a startup parameter ("unsupported startup parameter").
      ...(pooler === null && { statement_timeout: statementTimeoutMs }),
      ...(session !== null && { onConnect: session.onConnect }),
    });
    // Before the first connection: an idle one dropped during the migration must not end the process.
    postgres.handleIdleClientErrors(pool, options.logger);
    if (session !== null) pool.on("connect", session.onConnectEvent);
    // LISTEN and migrations over the direct URL when there is one: each listening worker holds one
    // of its connections, apart from the pool.
    const direct =
      directUrl === undefined
        ? undefined
        : new pg.Pool({
            connectionString: directUrl,
            connectionTimeoutMillis: 5_000,
            statement_timeout: statementTimeoutMs,
          });
    // An idle direct connection dropped (a restart, idle_session_timeout) must not crash the process.
    if (direct !== undefined) postgres.handleIdleClientErrors(direct, options.logger);
    try {
      await rethrowInvalidUrl(direct ? "DATABASE_DIRECT_URL" : "DATABASE_URL", () =>
        postgres.migrate(direct ?? pool, { schema, logger: options.logger }),
      );
    } catch (error) {
      await Promise.all([pool.end(), direct?.end()]).catch(() => undefined);
      throw error;
    }
    const logger = options.logger ?? defaultLogger;
    if (pooler === "transaction" && direct === undefined)
      logger.info(
        { pooler },
        "DATABASE_URL goes through a transaction pooler and DATABASE_DIRECT_URL is not set: not listening for deliveries; " +
          "workers pick up deliveries committed by other processes at their sweep (every 30 s unless sweepIntervalMs says otherwise)",
      );
    const through =
      pooler === null
        ? ""
        : ` through a ${pooler} pooler${direct ? " (LISTEN and migrations over DATABASE_DIRECT_URL)" : ""}`;
    return {
      storage: postgres.postgresStorage(pool, {
        statementTimeoutMs,
        schema,
        ...(options.logger !== undefined && { logger: options.logger }),
        transactionPooler: pooler === "transaction",
        ...(direct !== undefined && { listenPool: direct }),
      }),
      kind: "postgresql",
      description: `PostgreSQL ${describeUrl(url)}${inSchema}${through}`,
      persistent: true,
      dataDir,
    };
  }
  const { PGlite } = await importOptional(
    () => import("@electric-sql/pglite"),
    "@electric-sql/pglite",
    "embedded storage without DATABASE_URL",
  );
  await mkdir(dataDir, { recursive: true });
  // One process per data directory: a second PGlite on the same files would silently lose writes.
  const lock = lockDataDir(dataDir);
  let db: InstanceType<typeof PGlite> | undefined;
  try {
    db = new PGlite(join(dataDir, "pglite"));
    await postgres.migrate(db, { schema, logger: options.logger });
  } catch (error) {
    await db?.close().catch(() => undefined);
    lock.release();
    throw error;
  }
  const storage = postgres.postgresStorage(db, { schema });
  return {
    storage: { ...storage, close: () => storage.close().finally(lock.release) },
    kind: "pglite",
    description: `embedded PGlite in ${join(dataDir, "pglite")}${inSchema}`,
    persistent: true,
    dataDir,
  };
}

/** Why a process sharing a PostgreSQL database must be given the key, and how. */
export function secretKeyRequiredMessage(storage = "DATABASE_URL is set"): string {
  return (
    `${storage} but VITRINA_SECRET_KEY is not: secrets sealed with any other key can't be opened by the server. ` +
    "Set VITRINA_SECRET_KEY to the same key the server uses (base64, 32 bytes; a new one: `openssl rand -base64 32`), " +
    "or `secretBox` in vitrina.config.mjs. Only the embedded PGlite demo keeps a generated key in <data dir>/secret.key."
  );
}

/**
 * The key sealing secrets at rest: `VITRINA_SECRET_KEY` (base64, 32 bytes), or for local use a key
 * generated once into `<dataDir>/secret.key` (mode 600), so a restart can still open what it sealed.
 * With `DATABASE_URL` set it refuses (`invalid_argument`) instead: the database is shared with other
 * processes (the server, the CLI, workers), and a key generated here would seal secrets none of them
 * can open.
 */
export async function secretKeyFromEnv(
  dataDir: string,
  env: Record<string, string | undefined> = process.env,
): Promise<string> {
  if (env.VITRINA_SECRET_KEY) return env.VITRINA_SECRET_KEY;
  if (env.DATABASE_URL) throw new VitrinaError("invalid_argument", secretKeyRequiredMessage());
  const file = join(dataDir, "secret.key");
  const existing = await readFile(file, "utf8").catch(() => null);
  if (existing) return existing.trim();
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32).toString("base64");
  await writeFile(file, `${key}\n`, { mode: 0o600, flag: "wx" }).catch(async () => undefined);
  return (await readFile(file, "utf8")).trim();
}
