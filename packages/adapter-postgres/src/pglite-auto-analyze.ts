import { VitrinaError } from "@vitrina/core";
import type { PGliteLike } from "./driver.js";
import { quoteIdent } from "./migrations/index.js";

/** How often the tables are checked when nothing else is said: a sixth of autovacuum's one-minute naptime. */
export const DEFAULT_ANALYZE_CHECK_MS = 10_000;

/** The longest interval a Node timer keeps: past it, Node fires after 1 ms instead, with a warning. */
const MAX_TIMER_MS = 2_147_483_647;

/** `autoAnalyze.everyMs` as given, or an error naming the field: 0, NaN or a huge value would check every millisecond. */
function checkInterval(everyMs: unknown): number {
  if (typeof everyMs === "number" && Number.isFinite(everyMs) && everyMs >= 1 && everyMs <= MAX_TIMER_MS)
    return everyMs;
  const reason = `must be a number of milliseconds from 1 to ${MAX_TIMER_MS}; got ${String(everyMs)}`;
  throw new VitrinaError("invalid_argument", `autoAnalyze.everyMs ${reason}`, {
    reasons: [{ field: "autoAnalyze.everyMs", reason }],
  });
}

/**
 * The tables of `schema` that PostgreSQL's autovacuum would ANALYZE now, with its default
 * settings: more rows changed since the last ANALYZE than `autovacuum_analyze_threshold` (50)
 * plus `autovacuum_analyze_scale_factor` (0.1) of the rows counted then. A table never analyzed
 * counts 0 rows (`reltuples` is -1), so its first 50 changes are enough.
 * `pg_stat_get_mod_since_analyze` rather than the `pg_stat_user_tables` view: the view took 3–6 ms
 * a check on PGlite (it computes every counter of every table), this 1–2 ms.
 */
const DUE_FOR_ANALYZE = `
  SELECT c.relname AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = $1 AND c.relkind = 'r'
     AND pg_stat_get_mod_since_analyze(c.oid) > 50 + 0.1 * greatest(c.reltuples, 0)`;

/**
 * The statistics target of these ANALYZEs: a sample of 300 times it per table, 3,000 rows instead
 * of the default 30,000. ANALYZE runs on the server's only thread, and every request waits behind
 * it: on the deployed bench, with about 15,000 leads stored, the default's pass over the ten tables
 * that grow with leads took 700 ms, a second of p99. The plans that needed statistics (lookups by
 * key on tables that were empty at `migrate`) need the row counts, not a finer histogram.
 */
const STATISTICS_TARGET = 10;

/**
 * A pause between two tables' ANALYZE, so the requests that queued behind one run their next
 * statements before the next one starts, and wait behind one table's ANALYZE, not the whole pass.
 */
const PAUSE_BETWEEN_TABLES_MS = 20;

export interface AutoAnalyze {
  /** One check now, and ANALYZE of every table it finds due; resolves with their names. */
  check(): Promise<string[]>;
  /** No check starts after this; one under way stops after the table it is analyzing. */
  stop(): void;
}

/**
 * What autovacuum's ANALYZE does on a PostgreSQL server, for PGlite, which has no autovacuum: it
 * runs PostgreSQL in single-user mode, with no background processes, so its statistics stay as
 * they were at `migrate` (empty tables) unless someone runs ANALYZE.
 *
 * That mattered more than anything else on the embedded default. The adapter sends statements
 * named (see `pglite-statements.ts`), so after five runs PostgreSQL keeps one generic plan per
 * statement, made from the statistics of that moment, and keeps it until they change. Without
 * ANALYZE they never did: the lead registration planned against empty tables went from about
 * 0.9 ms a lead to 3.4 ms as its tables filled (the deployed bench, a few thousand leads), and
 * the server made 150 leads/s instead of 236. An ANALYZE changes the statistics, which makes
 * PostgreSQL plan the statements that read the table again.
 *
 * Only ANALYZE, not VACUUM: autovacuum's VACUUM runs beside the server, but on PGlite it would
 * run on the server's only thread, and its index passes read each index whole, so it would stop
 * every request for as long as the tables are large. ANALYZE reads a fixed sample (3,000 rows
 * per table at STATISTICS_TARGET), a few milliseconds, with a pause between tables. Tables whose
 * rows are updated are kept in check by PostgreSQL's page pruning meanwhile; a deployment that
 * wants VACUUM runs it at a quiet time.
 *
 * Checks run every `everyMs` on an unref'd timer, one at a time, through PGlite's own queue
 * (so between other statements, never inside someone's transaction). PostgreSQL publishes a
 * session's row counts at most once a second, so a check sees changes a second or so late.
 */
export function pgliteAutoAnalyze(
  db: PGliteLike,
  schema: string,
  options: { everyMs: number; onError: (error: unknown) => void },
): AutoAnalyze {
  const everyMs = checkInterval(options.everyMs);
  let stopped = false;
  let running: Promise<string[]> | null = null;
  const isClosed = () => (db as { closed?: boolean }).closed === true;

  async function analyzeDue(): Promise<string[]> {
    const { rows } = await db.query(DUE_FOR_ANALYZE, [schema]);
    const names = rows.map((row: { name: string }) => row.name);
    for (const [index, name] of names.entries()) {
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_TABLES_MS));
      if (stopped || isClosed()) break;
      await db.transaction(async (tx) => {
        await tx.query(`SET LOCAL default_statistics_target = ${STATISTICS_TARGET}`);
        await tx.query(`ANALYZE ${quoteIdent(schema)}.${quoteIdent(name)}`);
      });
    }
    return names;
  }

  function check(): Promise<string[]> {
    running ??= analyzeDue().finally(() => (running = null));
    return running;
  }

  const timer = setInterval(() => {
    // A PGlite the application closed itself (a shared driver, `closeDriver: false`).
    if (isClosed()) return stop();
    if (running === null) check().catch((error: unknown) => !stopped && options.onError(error));
  }, everyMs);
  timer.unref?.();

  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }
  return { check, stop };
}
