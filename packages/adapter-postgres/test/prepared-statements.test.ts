import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, postgresStorage } from "@vitrina/adapter-postgres";
import type { ContactRecord, Storage } from "@vitrina/core";
import { fixtures } from "@vitrina/core/testing";
import type { PGlite } from "@electric-sql/pglite";
import { BEHIND_TRANSACTION_POOLER, DATABASE_URL, freshPGlite, uniqueSchema } from "./support.js";

// Named prepared statements on a pg Pool need a PostgreSQL server; the PGlite suite below runs always.
if (!DATABASE_URL)
  console.log("prepared statements on a pg Pool: skipped, they need a PostgreSQL server (set DATABASE_URL)");
// Behind a transaction pooler named statements are off by design (`transactionPooler: true`).
if (BEHIND_TRANSACTION_POOLER)
  console.log("prepared statements on a pg Pool: skipped behind a transaction pooler, where statements go unnamed");

const read = (storage: Pick<Storage, "contacts">, contact: { workspaceId: string; id: string }) =>
  storage.contacts.get(contact.workspaceId, contact.id);

/** A rolling deploy's migrations under prepared `SELECT *`s: `migrateLive` runs DDL, `<schema>` standing for the schema. */
async function survivesMigrations(
  storage: Storage,
  contact: ContactRecord,
  migrateLive: (sql: string) => Promise<unknown>,
) {
  expect(await read(storage, contact)).toEqual(contact);
  await migrateLive(`ALTER TABLE <schema>.contacts ADD COLUMN added_by_a_later_release text`);
  // On its own, the statement is retried unnamed; later calls prepare under new names.
  expect(await read(storage, contact)).toEqual(contact);
  expect(await storage.transaction((tx) => read(tx, contact))).toEqual(contact);

  // Inside a transaction the stale statement aborts it: the caller gets a retryable error...
  await migrateLive(`ALTER TABLE <schema>.contacts ADD COLUMN and_another text`);
  await expect(storage.transaction((tx) => read(tx, contact))).rejects.toMatchObject({
    code: "storage_unavailable",
    message: expect.stringContaining("prepared statement went stale"),
  });
  // ...and the retry works.
  expect(await storage.transaction((tx) => read(tx, contact))).toEqual(contact);
}

describe.skipIf(!DATABASE_URL || BEHIND_TRANSACTION_POOLER)("named prepared statements on a pg Pool", () => {
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
    await survivesMigrations(storage, contact, (sql) => pool.query(sql.replaceAll("<schema>", `"${schema}"`)));
  });
});

describe("named prepared statements on PGlite", () => {
  const f = fixtures();
  let db: PGlite;
  afterEach(async () => {
    await db?.close();
  });

  async function open(options: { preparedStatements?: boolean; schema?: string } = {}) {
    const schema = options.schema ?? uniqueSchema();
    await migrate(db, { schema });
    const storage = postgresStorage(db, { schema, closeDriver: false, ...options });
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    const { contact } = await storage.contacts.insertOrGetByPhone(f.contact(workspace.id));
    return { schema, storage, contact };
  }
  const preparedNames = async () =>
    (await db.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'vitrina_%'`)).rows
      .length;

  it("prepares each statement once per instance, shared by storages on it, and not when turned off", async () => {
    db = await freshPGlite();
    const on = await open();
    expect(await read(on.storage, on.contact)).toEqual(on.contact);
    const afterFirst = await preparedNames();
    expect(afterFirst).toBeGreaterThan(0);
    expect(await read(on.storage, on.contact)).toEqual(on.contact);
    expect(await on.storage.transaction((tx) => read(tx, on.contact))).toEqual(on.contact);
    expect(await preparedNames()).toBe(afterFirst);
    // A second storage on the same instance and schema sends the same texts: the same names, not a second Parse.
    const again = postgresStorage(db, { schema: on.schema, closeDriver: false });
    expect(await read(again, on.contact)).toEqual(on.contact);
    expect(await preparedNames()).toBe(afterFirst);

    const before = await preparedNames();
    const off = await open({ preparedStatements: false });
    expect(await read(off.storage, off.contact)).toEqual(off.contact);
    expect(await preparedNames()).toBe(before);
  });

  it("reads back what it writes as PGlite's own query does: types, nulls, arrays, JSON, counts", async () => {
    db = await freshPGlite();
    const { storage, contact } = await open();
    const unnamed = postgresStorage(db, {
      schema: (await open()).schema,
      closeDriver: false,
      preparedStatements: false,
    });
    const workspace = f.workspace();
    await unnamed.workspaces.insert(workspace);
    const { contact: plain } = await unnamed.contacts.insertOrGetByPhone(
      f.contact(workspace.id, { tags: ["a", "b,c", 'd"e'], email: null }),
    );
    const { contact: named } = await storage.contacts.insertOrGetByPhone(
      f.contact(contact.workspaceId, { tags: ["a", "b,c", 'd"e'], email: null }),
    );
    const strip = (c: ContactRecord) => ({
      ...c,
      id: undefined,
      workspaceId: undefined,
      phoneE164: undefined,
    });
    expect(strip(named)).toEqual(strip(plain));
    expect(await read(storage, named)).toEqual(named);
  });

  it("keeps PGlite's one-at-a-time order: a statement made after a transaction began waits for its commit", async () => {
    db = await freshPGlite();
    const { storage, contact } = await open();
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = storage.transaction(async (tx) => {
      await tx.contacts.optOutOfWhatsApp(contact.workspaceId, contact.id, f.at(1));
      await held;
      order.push("committed");
    });
    const readAfter = read(storage, contact).then((seen) => {
      order.push("read");
      return seen;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await transaction;
    expect((await readAfter)?.whatsappOptedOutAt).toBe(f.at(1));
    expect(order).toEqual(["committed", "read"]);
  });

  it("prepares again after the statements were deallocated behind its back", async () => {
    db = await freshPGlite();
    const { storage, contact } = await open();
    expect(await read(storage, contact)).toEqual(contact);
    await db.exec("DEALLOCATE ALL");
    expect(await read(storage, contact)).toEqual(contact);
    expect(await preparedNames()).toBeGreaterThan(0);
  });

  it("survives a migration that changes a table under prepared `SELECT *`s", async () => {
    db = await freshPGlite();
    const { schema, storage, contact } = await open();
    await survivesMigrations(storage, contact, (sql) => db.exec(sql.replaceAll("<schema>", `"${schema}"`)));
  });

  it("runs statements unnamed on a PGlite-shaped driver without the protocol members (an older PGlite, a wrapper)", async () => {
    db = await freshPGlite();
    const schema = uniqueSchema();
    await migrate(db, { schema });
    const wrapper = {
      query: (text: string, params?: unknown[]) => db.query(text, params),
      transaction: <T>(work: (tx: { query: PGlite["query"] }) => Promise<T>) => db.transaction(work),
    };
    const storage = postgresStorage(wrapper, { schema, closeDriver: false });
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    expect(await storage.workspaces.get(workspace.id)).toEqual(workspace);
    expect(await preparedNames()).toBe(0);
    // Stops its ANALYZE checks: the wrapper can't tell them that PGlite was closed, so they would
    // go on warning, every 10 s, for the rest of the test run.
    await storage.close();
  });
});
