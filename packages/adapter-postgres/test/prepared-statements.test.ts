import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, postgresStorage } from "@vitrina/adapter-postgres";
import type { Storage } from "@vitrina/core";
import { fixtures } from "@vitrina/core/testing";
import { DATABASE_URL, uniqueSchema } from "./support.js";

// Named prepared statements are a pg Pool feature; PGlite (and a bare `query` object) always run
// statements unnamed, so without a PostgreSQL server there is nothing here to test.
if (!DATABASE_URL) console.log("prepared statements: skipped, they need a PostgreSQL server (set DATABASE_URL)");

describe.skipIf(!DATABASE_URL)("named prepared statements on a pg Pool", () => {
  const f = fixtures();
  const opened: Array<{ pool: pg.Pool; schema: string }> = [];
  afterEach(async () => {
    for (const { pool, schema } of opened.splice(0)) {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    }
  });

  /** A storage on a one-connection pool, so `pg_prepared_statements` shows that connection's. */
  async function open(options: { preparedStatements?: boolean } = {}) {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    const schema = uniqueSchema();
    opened.push({ pool, schema });
    await migrate(pool, { schema });
    const storage = postgresStorage(pool, { schema, closeDriver: false, ...options });
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    const { contact } = await storage.contacts.insertOrGetByPhone(f.contact(workspace.id));
    return { pool, schema, storage, contact };
  }
  const preparedNames = async (pool: pg.Pool) =>
    (await pool.query(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'vitrina_%'`)).rows.length;
  const read = (storage: Pick<Storage, "contacts">, contact: { workspaceId: string; id: string }) =>
    storage.contacts.get(contact.workspaceId, contact.id);

  it("prepares each statement once per connection by default, and not when turned off", async () => {
    const on = await open();
    expect(await read(on.storage, on.contact)).toEqual(on.contact);
    const afterFirst = await preparedNames(on.pool);
    expect(afterFirst).toBeGreaterThan(0);
    expect(await read(on.storage, on.contact)).toEqual(on.contact);
    expect(await on.storage.transaction((tx) => read(tx, on.contact))).toEqual(on.contact);
    expect(await preparedNames(on.pool)).toBe(afterFirst);

    const off = await open({ preparedStatements: false });
    expect(await read(off.storage, off.contact)).toEqual(off.contact);
    expect(await preparedNames(off.pool)).toBe(0);
  });

  it("survives a migration that changes a table under prepared `SELECT *`s", async () => {
    const { pool, schema, storage, contact } = await open();
    expect(await read(storage, contact)).toEqual(contact);
    await pool.query(`ALTER TABLE "${schema}".contacts ADD COLUMN added_by_a_later_release text`);
    // On its own, the statement is retried unnamed; later calls prepare under new names.
    expect(await read(storage, contact)).toEqual(contact);
    expect(await storage.transaction((tx) => read(tx, contact))).toEqual(contact);

    // Inside a transaction the stale statement aborts it: the caller gets a retryable error...
    await pool.query(`ALTER TABLE "${schema}".contacts ADD COLUMN and_another text`);
    await expect(storage.transaction((tx) => read(tx, contact))).rejects.toMatchObject({
      code: "storage_unavailable",
      message: expect.stringContaining("prepared statement went stale"),
    });
    // ...and the retry works.
    expect(await storage.transaction((tx) => read(tx, contact))).toEqual(contact);
  });
});
