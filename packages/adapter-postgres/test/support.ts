import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { migrate, postgresStorage, type PostgresStorageOptions } from "@vitrina/adapter-postgres";
import { createVitrina, silentLogger, type Storage, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { emitEvent } from "@vitrina/core/webhooks";

export const DATABASE_URL = process.env.DATABASE_URL;

/**
 * `VITRINA_DB_POOLER=transaction`: DATABASE_URL is a PgBouncer in transaction mode (as managed
 * PostgreSQL often hands out connections), so the suites' storages run without named prepared
 * statements or LISTEN, as `storageFromEnv` sets them up there.
 */
export const BEHIND_TRANSACTION_POOLER = process.env.VITRINA_DB_POOLER === "transaction";

// Where PGlite was installed from names its version (pnpm's store path does), so a cached data
// directory never outlives the PGlite that wrote it.
const PGLITE_BUILD = createHash("sha256")
  .update(createRequire(import.meta.url).resolve("@electric-sql/pglite"))
  .digest("hex")
  .slice(0, 16);

/** The backends every suite runs on: PGlite always, real PostgreSQL when DATABASE_URL is set. */
export const backends = [
  { name: "PGlite", available: true },
  { name: "PostgreSQL", available: Boolean(DATABASE_URL) },
]
  .filter((b) => b.available)
  .map((b) => b.name as "PGlite" | "PostgreSQL");

/**
 * A new, empty in-memory PGlite. Booting one runs initdb (about 3 s here); loading the data
 * directory of one that was just booted takes under 1 s. So the first test process boots one and
 * leaves its dump in the temp directory (keyed by PGlite's build, written whole and then renamed
 * so a concurrent reader never sees half of it), and every later PGlite in the run starts from it.
 */
export async function freshPGlite(): Promise<PGlite> {
  const cached = join(tmpdir(), `vitrina-test-pglite-${PGLITE_BUILD}.tar`);
  const dump = await readFile(cached).catch(() => null);
  if (dump !== null) return new PGlite({ loadDataDir: new Blob([dump]) });
  const db = new PGlite();
  await db.waitReady; // dumpDataDir on a PGlite still starting never resolves
  const blob = await db.dumpDataDir("none");
  const partial = `${cached}.${process.pid}.part`;
  await writeFile(partial, Buffer.from(await blob.arrayBuffer()));
  await rename(partial, cached);
  return db;
}

/**
 * Copies an empty PGlite data directory (what `new PGlite(dir)` leaves after its initdb, not yet
 * migrated) to `dir`, for a CLI or server that opens PGlite there: it finds an existing database
 * and only migrates it, instead of running initdb (seconds, in every process that starts fresh).
 * The first caller in a run boots one in the temp directory (keyed by PGlite's build, renamed into
 * place whole so a concurrent reader never copies half of it); the rest copy that one.
 */
export async function seedPgliteDataDir(dir: string): Promise<void> {
  const cached = join(tmpdir(), `vitrina-test-pglite-dir-${PGLITE_BUILD}`);
  if (!existsSync(join(cached, "PG_VERSION"))) {
    const partial = `${cached}.${process.pid}.part`;
    await rm(partial, { recursive: true, force: true });
    const db = new PGlite(partial);
    await db.waitReady;
    await db.close();
    await rename(partial, cached).catch(async (error: NodeJS.ErrnoException) => {
      // Another test process got there first: use its copy.
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
      await rm(partial, { recursive: true, force: true });
    });
  }
  await cp(cached, dir, { recursive: true });
}

export function uniqueSchema(): string {
  return `t_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
}

/**
 * A migrated storage in its own fresh schema, so parallel and repeated runs never collide.
 * On PostgreSQL the schema is dropped when the storage closes.
 */
export async function openTestStorage(backend: "PGlite" | "PostgreSQL", options: PostgresStorageOptions = {}) {
  const schema = uniqueSchema();
  if (backend === "PGlite") {
    const db = await freshPGlite();
    await migrate(db, { schema });
    return { storage: postgresStorage(db, { ...options, schema }), db, schema };
  }
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
  await migrate(pool, { schema });
  const storage = postgresStorage(pool, {
    ...(BEHIND_TRANSACTION_POOLER && { transactionPooler: true }),
    ...options,
    schema,
    closeDriver: false,
  });
  return {
    db: pool,
    schema,
    storage: {
      ...storage,
      async close() {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      },
    },
  };
}

/** A Vitrina over `storage` for tests: no messaging, a fixed secret-box key, no logs. */
export function testVitrina(storage: Storage, options: Partial<VitrinaOptions> = {}) {
  return createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 7).toString("base64"),
    logger: silentLogger,
    ...options,
  });
}

/**
 * True once `statement` waits on a lock in PostgreSQL (found in `pg_stat_activity` by `marker`, a
 * piece of its SQL); false if it finished without waiting. How a race test proves it raced.
 */
export async function waitsOnALock(
  db: { query(text: string, params?: unknown[]): Promise<{ rows: any[] }> },
  statement: Promise<unknown>,
  marker: string,
): Promise<boolean> {
  let finished = false;
  void statement.then(
    () => (finished = true),
    () => (finished = true),
  );
  while (!finished) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
      [`%${marker}%`],
    );
    if (rows[0].n > 0) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

/**
 * Emits the workspace's first `quote.created` again inside a transaction that then throws "rolled
 * back": a fan-out to its subscriptions that never commits (for tests of what a rollback announces).
 */
export async function fanOutAgainAndRollBack(
  storage: Storage,
  h: { workspace: { id: string }; clock: { now(): Date } },
): Promise<never> {
  const [created] = await storage.events.listByWorkspace(h.workspace.id, { type: "quote.created" });
  return storage.transaction(async (tx) => {
    await emitEvent(
      tx,
      { clock: h.clock as never, ids: () => crypto.randomUUID() },
      { workspaceId: h.workspace.id, type: "quote.created", data: created!.data as never },
    );
    throw new Error("rolled back");
  });
}

/** A pool of its own over DATABASE_URL: what another process's connections to the same database are. */
export function anotherPool(max = 4): pg.Pool {
  return new pg.Pool({ connectionString: DATABASE_URL, max });
}
