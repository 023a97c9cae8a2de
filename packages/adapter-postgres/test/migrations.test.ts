import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { fixtures } from "@vitrina/core/testing";
import { migrate, migrations, postgresStorage, type Queryable } from "@vitrina/adapter-postgres";
import { BEHIND_TRANSACTION_POOLER, DATABASE_URL, backends, freshPGlite, uniqueSchema } from "./support.js";

const latest = migrations.at(-1)!.version;

async function tables(db: Queryable, schema: string): Promise<string[]> {
  const { rows } = await db.query(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
    [schema],
  );
  return rows.map((r) => r.table_name);
}

async function openDriver(backend: "PGlite" | "PostgreSQL") {
  return backend === "PGlite" ? await freshPGlite() : new pg.Pool({ connectionString: DATABASE_URL, max: 4 });
}

async function closeDriver(db: PGlite | pg.Pool, schema: string) {
  if (db instanceof PGlite) return db.close();
  await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await db.end();
}

/** Runs `work` on a fresh schema migrated to the latest version, then drops it. */
async function inMigratedSchema(
  backend: "PGlite" | "PostgreSQL",
  work: (q: Queryable, schema: string, db: PGlite | pg.Pool) => Promise<void>,
) {
  const db = await openDriver(backend);
  const schema = uniqueSchema();
  try {
    await migrate(db, { schema });
    await work(db as Queryable, schema, db);
  } finally {
    await closeDriver(db, schema);
  }
}

/** The indexes of `table` in `schema`, with their definitions. */
async function indexesOf(q: Queryable, schema: string, table: string) {
  const { rows } = await q.query(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2",
    [schema, table],
  );
  return rows as { indexname: string; indexdef: string }[];
}

describe.each(backends)("migrations on %s", (backend) => {
  it("applies every migration to a fresh database, then re-runs as a no-op", async () => {
    const db = await openDriver(backend);
    const schema = uniqueSchema();
    try {
      expect(await migrate(db, { schema })).toEqual(migrations.map((m) => m.version));
      const before = await tables(db, schema);
      expect(before).toContain("lead_events");
      expect(await migrate(db, { schema })).toEqual([]);
      expect(await tables(db, schema)).toEqual(before);
      const { rows } = await (db as Queryable).query(
        `SELECT version FROM "${schema}".vitrina_migrations ORDER BY version`,
      );
      expect(rows.map((r) => Number(r.version))).toEqual(migrations.map((m) => m.version));
    } finally {
      await closeDriver(db, schema);
    }
  });

  it("lets two concurrent migrate() calls both succeed, applying each migration once", async () => {
    const db = await openDriver(backend);
    const schema = uniqueSchema();
    try {
      const [a, b] = await Promise.all([migrate(db, { schema }), migrate(db, { schema })]);
      expect([...a, ...b].sort((x, y) => x - y)).toEqual(migrations.map((m) => m.version));
      expect(await migrate(db, { schema })).toEqual([]);
    } finally {
      await closeDriver(db, schema);
    }
  });

  // Claiming a first message for sending (the hot path of every lead) changes these columns of
  // its row and no others. While no index covers them, PostgreSQL can make that UPDATE a HOT update
  // (no new index entries); one index on them costs every lead an entry in each of the table's
  // indexes (about 7 % of PostgreSQL's CPU per lead, measured when migration 11 took
  // handed_to_provider_at out of the unsettled index).
  it("indexes none of the columns a first-message claim changes", () =>
    inMigratedSchema(backend, async (q, schema) => {
      const indexes = await indexesOf(q, schema, "outbound_messages");
      expect(indexes.map((r) => r.indexname)).toContain("outbound_messages_unsettled_idx");
      for (const { indexdef } of indexes) expect(indexdef).not.toMatch(/handed_to_provider_at|reason|updated_at/);
    }));

  // The same for a delivery's claim (every delivery's hot path): it sets the lease and nothing else.
  it("indexes none of the columns a delivery's claim changes", () =>
    inMigratedSchema(backend, async (q, schema) => {
      const indexes = await indexesOf(q, schema, "webhook_deliveries");
      expect(indexes.map((r) => r.indexname)).toContain("webhook_deliveries_subscription_due_idx");
      for (const { indexdef } of indexes) expect(indexdef).not.toMatch(/lease_until|leased_by/);
    }));

  // On a large outbox an operator may build migration 19's index CONCURRENTLY beforehand (the
  // migration's own build holds writes back): the migration then finds it and goes on.
  it("applies migration 19 over its index built by hand beforehand", () =>
    inMigratedSchema(backend, async (q, schema, db) => {
      await q.query(`DROP INDEX "${schema}".webhook_deliveries_subscription_due_idx`);
      await q.query(`DELETE FROM "${schema}".vitrina_migrations WHERE version = 19`);
      await q.query(
        `CREATE INDEX ${backend === "PostgreSQL" ? "CONCURRENTLY" : ""} IF NOT EXISTS webhook_deliveries_subscription_due_idx
           ON "${schema}".webhook_deliveries (subscription_id, next_attempt_at, id) WHERE status = 'pending'`,
      );
      expect(await migrate(db, { schema })).toEqual([
        19,
        ...migrations.filter((m) => m.version > 19).map((m) => m.version),
      ]);
    }));

  it("leaves the schema as it was when a migration fails", async () => {
    const db = await openDriver(backend);
    const schema = uniqueSchema();
    const broken = {
      version: latest + 1,
      name: "broken",
      statements: (s: string) => [`CREATE TABLE ${s}.half_done (id int)`, "SELECT * FROM no_such_table"],
    };
    migrations.push(broken);
    try {
      await expect(migrate(db, { schema })).rejects.toThrow(/no_such_table/);
      expect(await tables(db, schema)).toEqual([]);
    } finally {
      migrations.pop();
      await closeDriver(db, schema);
    }
  });
});

describe("restart on the same database", () => {
  it.each(backends)(
    "%s: a new storage reads back what the old one wrote and still sees duplicates",
    async (backend) => {
      const f = fixtures();
      const schema = uniqueSchema();
      const dataDir = backend === "PGlite" ? await mkdtemp(join(tmpdir(), "vitrina-pglite-")) : null;
      const open = () => (dataDir ? new PGlite(dataDir) : new pg.Pool({ connectionString: DATABASE_URL, max: 2 }));
      const workspace = f.workspace();
      const connector = f.connector(workspace.id);
      const lead = f.lead(workspace.id, connector.id);
      // Behind a transaction pooler the second pool's statements may land on the server connections
      // the first one prepared its statements on: they go unnamed there, as documented.
      const pooler = BEHIND_TRANSACTION_POOLER && !dataDir ? { transactionPooler: true } : {};
      try {
        const first = open();
        await migrate(first, { schema });
        const before = postgresStorage(first, { schema, ...pooler });
        await before.workspaces.insert(workspace);
        await before.connectors.insert(connector);
        expect(await before.leads.insertIfNew(lead)).toBe(true);
        await before.close();

        const second = open();
        expect(await migrate(second, { schema })).toEqual([]);
        const after = postgresStorage(second, { schema, closeDriver: false, ...pooler });
        expect(await after.leads.findBySourceId(connector.id, lead.sourceLeadId)).toEqual(lead);
        expect(
          await after.leads.insertIfNew({ ...f.lead(workspace.id, connector.id), sourceLeadId: lead.sourceLeadId }),
        ).toBe(false);
        await closeDriver(second, schema);
      } finally {
        if (dataDir) await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
