import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageFromEnv } from "../src/config/storage-from-env.js";

// A mistyped timeout is refused at start-up naming the variable, before any storage is opened,
// rather than reaching PostgreSQL as NaN and failing the first query far from its cause.
describe("storageFromEnv: VITRINA_STATEMENT_TIMEOUT_MS", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "vitrina-env-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(["abc", "10s", "0", "-5", "1.5", "1e4"])("refuses %j naming the variable", async (value) => {
    await expect(
      storageFromEnv({
        env: { VITRINA_STATEMENT_TIMEOUT_MS: value, VITRINA_DATA_DIR: join(dir, "never"), DATABASE_URL: "" },
      }),
    ).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining(`VITRINA_STATEMENT_TIMEOUT_MS must be a positive whole number`),
      reasons: [{ field: "VITRINA_STATEMENT_TIMEOUT_MS", reason: "must be a positive whole number of milliseconds" }],
    });
  });
});

describe("storageFromEnv: VITRINA_DB_POOL_SIZE", () => {
  it.each(["abc", "0", "-1", "2.5", "ten"])("refuses %j naming the variable", async (value) => {
    await expect(
      storageFromEnv({
        env: { VITRINA_DB_POOL_SIZE: value, DATABASE_URL: "postgres://postgres@127.0.0.1:1/never" },
      }),
    ).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining(`VITRINA_DB_POOL_SIZE must be a positive whole number`),
      reasons: [{ field: "VITRINA_DB_POOL_SIZE", reason: "must be a positive whole number" }],
    });
  });

  it.runIf(process.env.DATABASE_URL)("opens at most that many connections under concurrent load", async () => {
    const name = `vitrina_pool_size_${process.pid}_${Date.now()}`;
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set("application_name", name);
    const schema = `pool_size_${process.pid}_${Date.now()}`;
    const { storage } = await storageFromEnv({
      schema,
      env: { DATABASE_URL: url.toString(), VITRINA_DB_POOL_SIZE: "3", VITRINA_SECRET_KEY: "x" },
    });
    try {
      await Promise.all(Array.from({ length: 30 }, () => storage.ping()));
      const { default: pg } = await import("pg");
      const client = new pg.Client(process.env.DATABASE_URL);
      await client.connect();
      try {
        const { rows } = await client.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
          [name],
        );
        expect(rows[0].n).toBe(3);
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    } finally {
      await storage.close();
    }
  });
});
