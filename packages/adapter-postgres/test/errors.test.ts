import pg from "pg";
import { describe, expect, it } from "vitest";
import { StorageError } from "@vitrina/core";
import { postgresStorage } from "@vitrina/adapter-postgres";
import { DATABASE_URL, openTestStorage } from "./support.js";

describe("driver failures become clear StorageErrors", () => {
  it("reports an unreachable server as storage_unavailable, with the cause", async () => {
    const pool = new pg.Pool({
      host: "127.0.0.1",
      port: 1,
      user: "postgres",
      database: "test",
      connectionTimeoutMillis: 2000,
    });
    const storage = postgresStorage(pool);
    try {
      const error = await storage.workspaces.get("w").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ code: "storage_unavailable", message: expect.stringMatching(/unavailable/) });
      expect((error as StorageError).cause).toBeDefined();
      await expect(storage.transaction(async (tx) => tx.workspaces.get("w"))).rejects.toMatchObject({
        code: "storage_unavailable",
      });
    } finally {
      await storage.close();
    }
  });

  // Real server only: PGlite has no statement_timeout to enforce (one connection, nothing to cancel it).
  it.runIf(DATABASE_URL)("cancels a transaction statement past statementTimeoutMs as storage_timeout", async () => {
    const { storage: migrated, db, schema } = await openTestStorage("PostgreSQL");
    const pool = db as pg.Pool;
    // A driver whose transaction connections run a slow statement before each read: the structural
    // driver type lets the test slow the real server down without touching the adapter.
    const slowDriver = {
      query: pool.query.bind(pool),
      async connect() {
        const client = await pool.connect();
        return {
          query: async (text: string, params?: unknown[]) => {
            if (text.startsWith("SELECT * FROM")) await client.query("SELECT pg_sleep(2)");
            return client.query(text, params);
          },
          release: (error?: Error | boolean) => client.release(error),
        };
      },
    };
    const storage = postgresStorage(slowDriver, { schema, statementTimeoutMs: 100, closeDriver: false });
    try {
      const error = await storage.transaction((tx) => tx.workspaces.get("w")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ code: "storage_timeout" });
      // The connection went back to the pool healthy: the next transaction works.
      expect(await migrated.transaction((tx) => tx.workspaces.get("w"))).toBeNull();
    } finally {
      await migrated.close();
    }
  });
});

describe("text the server cannot store", () => {
  it.each(["22021", "22P02", "22P05"])("maps SQLSTATE %s to invalid_argument, with the cause", async (code) => {
    const driverError = Object.assign(new Error("refused by the server"), { code });
    const storage = postgresStorage({ query: async () => Promise.reject(driverError) }, { closeDriver: false });
    const error = await storage.workspaces.get("w").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "invalid_argument", cause: driverError });
  });

  it("refuses a lone surrogate before the driver would send it as U+FFFD", async () => {
    const sent: unknown[][] = [];
    const storage = postgresStorage(
      { query: async (_text: string, params?: unknown[]) => (sent.push(params ?? []), { rows: [] }) },
      { closeDriver: false },
    );
    await expect(storage.workspaces.get("a\uD800")).rejects.toMatchObject({ code: "invalid_argument" });
    expect(sent).toEqual([]);
  });
});
