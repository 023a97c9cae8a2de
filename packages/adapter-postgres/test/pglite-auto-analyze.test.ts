import { describe, expect, it, vi } from "vitest";
import type { PGlite } from "@electric-sql/pglite";
import { postgresStorage, type PGliteLike } from "@vitrina/adapter-postgres";
import type { Storage } from "@vitrina/core";
import { recordingLogger } from "../../http-node/test/support/recording-logger.js";
import { pgliteAutoAnalyze } from "../src/pglite-auto-analyze.js";
import { freshPGlite } from "./support.js";

// PGlite has no autovacuum: the adapter ANALYZEs Vitrina's tables past autovacuum's threshold
// (50 changed rows plus a tenth of the table) so that its prepared statements' plans follow the
// tables as they fill (see pglite-auto-analyze.ts).

/** Rows PostgreSQL counted at the table's last ANALYZE; -1 when it was never analyzed. */
async function rowsAtLastAnalyze(db: PGlite, schema: string, table: string): Promise<number> {
  const { rows } = await db.query<{ reltuples: number }>(
    `SELECT c.reltuples FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2`,
    [schema, table],
  );
  return rows[0]!.reltuples;
}

/** Rows changed since the table's last ANALYZE, as far as the session has published its counts (once a second). */
async function changedSinceAnalyze(db: PGlite, schema: string, table: string): Promise<number> {
  const { rows } = await db.query<{ changed: number }>(
    `SELECT pg_stat_get_mod_since_analyze(format('%I.%I', $1::text, $2::text)::regclass)::int AS changed`,
    [schema, table],
  );
  return rows[0]!.changed;
}

async function fill(db: PGlite, schema: string, table: string, rows: number): Promise<void> {
  await db.exec(`CREATE TABLE "${schema}"."${table}" (id int PRIMARY KEY)`);
  await db.query(`INSERT INTO "${schema}"."${table}" SELECT generate_series(1, $1::int)`, [rows]);
}

/** An auto-analyze whose timer never fires within a test: it checks when the test calls `check()`. */
const checkedByHand = (db: PGlite, schema: string) =>
  pgliteAutoAnalyze(db, schema, { everyMs: 3_600_000, onError: (error) => expect.fail(String(error)) });

/** Until PostgreSQL has published the session's row counts (at most once a second, between statements). */
async function countsPublished(db: PGlite, schema: string, table: string, rows: number): Promise<void> {
  await vi.waitFor(async () => expect(await changedSinceAnalyze(db, schema, table)).toBe(rows), {
    timeout: 10_000,
    interval: 100,
  });
}

/** A fresh PGlite, closed with the storages handed to `keep` when the test ends. */
async function pgliteFor(onTestFinished: (cleanup: () => Promise<void>) => void) {
  const db = await freshPGlite();
  const storages: Storage[] = [];
  onTestFinished(async () => {
    for (const storage of storages) await storage.close();
    if (!db.closed) await db.close();
  });
  return { db, keep: (storage: Storage) => (storages.push(storage), storage) };
}

// Concurrent: most of each test is waiting for PostgreSQL to publish its counters.
describe.concurrent("PGlite: ANALYZE where autovacuum would", () => {
  it("analyzes the storage's tables that changed past the threshold, and no others", async ({ onTestFinished }) => {
    const { db, keep } = await pgliteFor(onTestFinished);
    // The check reads only pg_class, so the storage's schema needs no migration for this.
    await db.exec(`CREATE SCHEMA analyzed; CREATE SCHEMA elsewhere`);
    await fill(db, "analyzed", "grown", 80); // past 50 + 0.1 × 0
    await fill(db, "analyzed", "barely", 10);
    await fill(db, "elsewhere", "grown", 80);
    const { logger, entries } = recordingLogger();
    keep(postgresStorage(db, { schema: "analyzed", autoAnalyze: { everyMs: 50 }, logger }));

    await vi.waitFor(async () => expect(await rowsAtLastAnalyze(db, "analyzed", "grown")).toBe(80), {
      timeout: 10_000,
      interval: 100,
    });
    // The same check that analyzed `grown` saw the other two tables' counts.
    expect(await rowsAtLastAnalyze(db, "analyzed", "barely")).toBe(-1);
    expect(await rowsAtLastAnalyze(db, "elsewhere", "grown")).toBe(-1);
    expect(entries.filter((entry) => entry.level === "warn" || entry.level === "error")).toEqual([]);
  });

  it("analyzes a table again once a tenth of it has changed, not before", async ({ onTestFinished }) => {
    const { db, keep } = await pgliteFor(onTestFinished);
    await db.exec(`CREATE SCHEMA grows`);
    await fill(db, "grows", "t", 1000);
    const keeper = checkedByHand(db, "grows");
    try {
      await countsPublished(db, "grows", "t", 1000);
      expect(await keeper.check()).toEqual(["t"]);
      expect(await rowsAtLastAnalyze(db, "grows", "t")).toBe(1000);

      // 140 more: under 50 + 0.1 × 1000.
      await db.query(`INSERT INTO grows.t SELECT generate_series(1001, 1140)`);
      await countsPublished(db, "grows", "t", 140);
      expect(await keeper.check()).toEqual([]);

      // 20 more: 160, past 150.
      await db.query(`INSERT INTO grows.t SELECT generate_series(1141, 1160)`);
      await countsPublished(db, "grows", "t", 160);
      expect(await keeper.check()).toEqual(["t"]);
      expect(await rowsAtLastAnalyze(db, "grows", "t")).toBe(1160);
    } finally {
      keeper.stop();
    }
  });

  it("samples a tenth of the default, so a pass stalls the server's thread briefly, and leaves the session's target as it was", async ({
    onTestFinished,
  }) => {
    const { db } = await pgliteFor(onTestFinished);
    await db.exec(`CREATE SCHEMA sampled`);
    await fill(db, "sampled", "t", 5000);
    const keeper = checkedByHand(db, "sampled");
    try {
      await countsPublished(db, "sampled", "t", 5000);
      expect(await keeper.check()).toEqual(["t"]);
      // A statistics target of 10: at most 11 histogram bounds (the default, 100, writes 101).
      const { rows } = await db.query<{ bounds: number }>(
        `SELECT array_length(histogram_bounds, 1) AS bounds FROM pg_stats WHERE schemaname = 'sampled' AND tablename = 't' AND attname = 'id'`,
      );
      expect(rows[0]!.bounds).toBeLessThanOrEqual(11);
      expect(rows[0]!.bounds).toBeGreaterThan(1);
      const target = await db.query<{ default_statistics_target: string }>(`SHOW default_statistics_target`);
      expect(target.rows[0]!.default_statistics_target).toBe("100");
    } finally {
      keeper.stop();
    }
  });

  it("leaves statistics alone with autoAnalyze: false", async ({ onTestFinished }) => {
    const { db, keep } = await pgliteFor(onTestFinished);
    await db.exec(`CREATE SCHEMA unanalyzed`);
    await fill(db, "unanalyzed", "grown", 80);
    keep(postgresStorage(db, { schema: "unanalyzed", autoAnalyze: false }));
    await countsPublished(db, "unanalyzed", "grown", 80);
    // Many times the interval the other tests use, and past the point where they had analyzed.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await rowsAtLastAnalyze(db, "unanalyzed", "grown")).toBe(-1);
  });

  it("checks no more once the storage is closed", async ({ onTestFinished }) => {
    const { db } = await pgliteFor(onTestFinished);
    await db.exec(`CREATE SCHEMA closed`);
    await fill(db, "closed", "grown", 80);
    await countsPublished(db, "closed", "grown", 80);
    // Closed before its first check (20 ms), on a PGlite that stays open: the table is due and never analyzed.
    await postgresStorage(db, { schema: "closed", autoAnalyze: { everyMs: 20 }, closeDriver: false }).close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await rowsAtLastAnalyze(db, "closed", "grown")).toBe(-1);
  });

  it("stops quietly when the application closes a PGlite it shares", async ({ onTestFinished }) => {
    const { db, keep } = await pgliteFor(onTestFinished);
    await db.exec(`CREATE SCHEMA shared`);
    const { logger, entries } = recordingLogger();
    keep(postgresStorage(db, { schema: "shared", autoAnalyze: { everyMs: 20 }, closeDriver: false, logger }));
    await db.close();
    // Checks would run against a closed PGlite now: each would fail and be logged.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(entries).toEqual([]);
  });

  it("refuses an interval that would check every millisecond, naming the field", async ({ onTestFinished }) => {
    const { db } = await pgliteFor(onTestFinished);
    for (const everyMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, "10000" as unknown as number]) {
      expect(() => postgresStorage(db, { autoAnalyze: { everyMs } })).toThrow(
        expect.objectContaining({
          code: "invalid_argument",
          reasons: [{ field: "autoAnalyze.everyMs", reason: expect.stringContaining("from 1 to 2147483647") }],
        }),
      );
    }
  });

  it("logs a failed check and keeps checking", async ({ onTestFinished }) => {
    const { db, keep } = await pgliteFor(onTestFinished);
    await db.exec(`CREATE SCHEMA failing`);
    await fill(db, "failing", "grown", 80);
    const { logger, entries } = recordingLogger();
    const real = db;
    let failures = 1;
    // PGlite's first check fails; the rest go through.
    const flaky: PGliteLike = {
      query: (text, params) =>
        /pg_stat_get_mod_since_analyze/.test(text) && failures-- > 0
          ? Promise.reject(new Error("disk full"))
          : real.query(text, params),
      transaction: (work) => real.transaction(work),
    };
    keep(postgresStorage(flaky, { schema: "failing", autoAnalyze: { everyMs: 50 }, closeDriver: false, logger }));

    await vi.waitFor(async () => expect(await rowsAtLastAnalyze(db, "failing", "grown")).toBe(80), {
      timeout: 10_000,
      interval: 100,
    });
    expect(entries).toEqual([
      expect.objectContaining({
        level: "warn",
        message: expect.stringContaining("ANALYZE of the embedded database's tables failed"),
        fields: { error: expect.stringContaining("disk full") },
      }),
    ]);
  });
});
