import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { VitrinaError, type Logger, type Storage } from "@vitrina/core";
import { lockDataDir } from "./data-dir-lock.js";

export interface ConfiguredStorage {
  storage: Storage;
  /** For the startup line, e.g. `PostgreSQL postgres@127.0.0.1:5432/test` (never a password). */
  description: string;
  persistent: boolean;
  /** Where local state (PGlite files, the generated secret key) lives. */
  dataDir: string;
}

export interface StorageFromEnvOptions {
  /** Force the in-memory adapter (the `--memory` flag). */
  memory?: boolean;
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
 * Picks storage the way the CLI and the example server document it:
 * `--memory` or `VITRINA_STORAGE=memory` → in memory; `DATABASE_URL` → PostgreSQL (pg Pool);
 * otherwise embedded PGlite persisted in `VITRINA_DATA_DIR` (default `.vitrina/`). Migrates first.
 * PGlite locks its data directory for this process until `storage.close()` (or exit): a second
 * process opening it fails with `storage_unavailable` naming the holder.
 */
export async function storageFromEnv(options: StorageFromEnvOptions = {}): Promise<ConfiguredStorage> {
  const env = options.env ?? process.env;
  const dataDir = resolve(env.VITRINA_DATA_DIR ?? ".vitrina");
  if (options.memory || env.VITRINA_STORAGE === "memory") {
    const { memoryStorage } = await import("@vitrina/adapter-memory");
    return { storage: memoryStorage(), description: "memory (nothing survives a restart)", persistent: false, dataDir };
  }
  const postgres = await import("@vitrina/adapter-postgres").catch((cause: unknown) => {
    throw new VitrinaError("invalid_argument", "persistent storage needs @vitrina/adapter-postgres installed (or use --memory)", { cause });
  });
  const statementTimeoutMs = env.VITRINA_STATEMENT_TIMEOUT_MS ? Number(env.VITRINA_STATEMENT_TIMEOUT_MS) : 10_000;
  if (env.DATABASE_URL) {
    const { default: pg } = await import("pg");
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: 5_000, statement_timeout: statementTimeoutMs });
    await postgres.migrate(pool, { logger: options.logger });
    return {
      storage: postgres.postgresStorage(pool, { statementTimeoutMs }),
      description: `PostgreSQL ${describeUrl(env.DATABASE_URL)}`,
      persistent: true,
      dataDir,
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  await mkdir(dataDir, { recursive: true });
  // One process per data directory: a second PGlite on the same files would silently lose writes.
  const lock = lockDataDir(dataDir);
  let db: InstanceType<typeof PGlite> | undefined;
  try {
    db = new PGlite(join(dataDir, "pglite"));
    await postgres.migrate(db, { logger: options.logger });
  } catch (error) {
    await db?.close().catch(() => undefined);
    lock.release();
    throw error;
  }
  const storage = postgres.postgresStorage(db);
  return {
    storage: { ...storage, close: () => storage.close().finally(lock.release) },
    description: `embedded PGlite in ${join(dataDir, "pglite")}`,
    persistent: true,
    dataDir,
  };
}

/**
 * The key sealing secrets at rest: `VITRINA_SECRET_KEY` (base64, 32 bytes), or for local use a key
 * generated once into `<dataDir>/secret.key` (mode 600), so a restart can still open what it sealed.
 */
export async function secretKeyFromEnv(dataDir: string, env: Record<string, string | undefined> = process.env): Promise<string> {
  if (env.VITRINA_SECRET_KEY) return env.VITRINA_SECRET_KEY;
  const file = join(dataDir, "secret.key");
  const existing = await readFile(file, "utf8").catch(() => null);
  if (existing) return existing.trim();
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32).toString("base64");
  await writeFile(file, `${key}\n`, { mode: 0o600, flag: "wx" }).catch(async () => undefined);
  return (await readFile(file, "utf8")).trim();
}
