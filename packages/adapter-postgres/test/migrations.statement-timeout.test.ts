import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate, migrations } from "@vitrina/adapter-postgres";
import { BEHIND_TRANSACTION_POOLER, DATABASE_URL, uniqueSchema } from "./support.js";

if (!DATABASE_URL)
  console.warn(
    "migrations.statement-timeout: skipped, a pool's statement_timeout needs real PostgreSQL (set DATABASE_URL)",
  );

/**
 * The README's setup is `new pg.Pool({ statement_timeout: 10_000 })` then `migrate(pool)`, "safe from
 * many instances at once", and `storageFromEnv` (the CLI, the demo) builds its pool the same way. The
 * pool's statement_timeout is meant for requests: a migration that legitimately runs longer (an index
 * built over a large table), or an instance queued on the advisory lock behind one, must not be
 * cancelled by it, or the second instance of a rolling deploy fails to start.
 */
// PgBouncer refuses `statement_timeout` as a startup parameter unless told to ignore it, so this
// setup doesn't exist behind one; the pooler's own migrate race is in pgbouncer.e2e.test.ts.
if (BEHIND_TRANSACTION_POOLER)
  console.warn(
    "migrations.statement-timeout: skipped behind a transaction pooler, which refuses statement_timeout at connect",
  );
describe.runIf(DATABASE_URL && !BEHIND_TRANSACTION_POOLER)(
  "migrate under a pool's statement_timeout on PostgreSQL",
  () => {
    const STATEMENT_TIMEOUT_MS = 300;
    const pool = () => new pg.Pool({ connectionString: DATABASE_URL, max: 2, statement_timeout: STATEMENT_TIMEOUT_MS });

    it("waits behind another instance holding the migrate lock for longer than the timeout, then migrates", async () => {
      const schema = uniqueSchema();
      const other = new pg.Client({ connectionString: DATABASE_URL });
      await other.connect();
      const db = pool();
      try {
        // Another instance in the middle of a long migration: it holds the migrate lock for 4 × the timeout.
        await other.query("BEGIN");
        await other.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`vitrina:migrate:${schema}`]);
        const waiting = migrate(db, { schema });
        const outcome = waiting.then(
          () => "applied",
          (error: Error) => `failed: ${error.message}`,
        );
        await new Promise((resolve) => setTimeout(resolve, 4 * STATEMENT_TIMEOUT_MS));
        await other.query("COMMIT");
        expect(await outcome).toBe("applied");
        expect(await waiting).toEqual(migrations.map((m) => m.version));
      } finally {
        await other.query("ROLLBACK").catch(() => undefined);
        await other.end();
        await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await db.end();
      }
    });

    it("lets one migration statement run longer than the timeout", async () => {
      const schema = uniqueSchema();
      const db = pool();
      const slow = {
        version: migrations.at(-1)!.version + 1,
        name: "slow",
        // Stands in for CREATE INDEX over a table with millions of rows.
        statements: () => [`SELECT pg_sleep(${(3 * STATEMENT_TIMEOUT_MS) / 1000})`],
      };
      migrations.push(slow);
      try {
        expect(await migrate(db, { schema })).toContain(slow.version);
      } finally {
        migrations.pop();
        await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await db.end();
      }
    });
  },
);
