import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { migrate, postgresStorage, type PostgresStorageOptions } from "@vitrina/adapter-postgres";
import { createVitrina, silentLogger, type Storage, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";

export const DATABASE_URL = process.env.DATABASE_URL;

/** The backends every suite runs on: PGlite always, real PostgreSQL when DATABASE_URL is set. */
export const backends = [
  { name: "PGlite", available: true },
  { name: "PostgreSQL", available: Boolean(DATABASE_URL) },
]
  .filter((b) => b.available)
  .map((b) => b.name as "PGlite" | "PostgreSQL");

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
    const db = new PGlite();
    await migrate(db, { schema });
    return { storage: postgresStorage(db, { ...options, schema }), db, schema };
  }
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
  await migrate(pool, { schema });
  const storage = postgresStorage(pool, { ...options, schema, closeDriver: false });
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
