// Shared measuring helpers for the bench modules.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** The PostgreSQL the benches use: DATABASE_URL, else the local server. */
export const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * Runs `fn` repeatedly for about `ms` milliseconds (after a warm-up) and returns ops/s. A second
 * covers tens of thousands of calls for every in-process case here, enough for a steady rate.
 */
export async function opsPerSecond(fn, { ms = 1000, warmup = 200 } = {}) {
  const warmEnd = performance.now() + warmup;
  while (performance.now() < warmEnd) await fn();
  let count = 0;
  const start = performance.now();
  const end = start + ms;
  while (performance.now() < end) {
    await fn();
    count++;
  }
  return (count * 1000) / (performance.now() - start);
}

/** Synchronous variant, batched so the timer isn't read on every call. */
export function opsPerSecondSync(fn, { ms = 1000, batch = 100 } = {}) {
  for (let i = 0; i < batch * 10; i++) fn();
  let count = 0;
  const start = performance.now();
  const end = start + ms;
  while (performance.now() < end) {
    for (let i = 0; i < batch; i++) fn();
    count += batch;
  }
  return (count * 1000) / (performance.now() - start);
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

/**
 * ANALYZEs every table in `schema`, as autovacuum would soon after rows land on a server that runs
 * it. The PostgreSQL benches use fresh tables each round and this machine's PostgreSQL runs with
 * autovacuum off, so without this they would measure missing statistics, for Vitrina and its
 * references alike: a queue claim planned as "fetch every due row, sort them all" instead of
 * walking the due-order index, a named statement keeping the plan it got on an empty table.
 * `query(sql, params)` runs one statement.
 */
export const analyzeSchema = (query, schema) => onEachTable(query, schema, "ANALYZE");

/**
 * VACUUMs every table in `schema`, as autovacuum would on a server that runs it once updated rows
 * pile up. For the one contender whose tables live through every round (the `vitrina worker`
 * process of outbox-drainer.mjs); the others get fresh tables each round. Without it, each round's
 * claims walked the due-order index past the earlier rounds' dead entries on this machine's
 * PostgreSQL (autovacuum off): over six rounds, PostgreSQL's CPU per delivery rose from about 180 to
 * 230–270 µs, against 168–190 µs in every round with it.
 */
export const vacuumSchema = (query, schema) => onEachTable(query, schema, "VACUUM");

/** Runs `command` (ANALYZE, VACUUM) on each table of `schema`, one statement a table. */
async function onEachTable(query, schema, command) {
  const { rows } = await query("SELECT tablename FROM pg_tables WHERE schemaname = $1", [schema]);
  for (const { tablename } of rows) await query(`${command} "${schema}"."${tablename}"`);
}

/** Whether a PostgreSQL server answers at `databaseUrl` within a second. */
export async function postgresAnswers(databaseUrl) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The rows a PostgreSQL intake server's leads wrote in `schema`: leads, contacts, opportunities,
 * consent evidence in the ledger, first messages marked sent, conversations, their messages and
 * `conversation.started` events. The lead-intake bench sends only new persons with consent, so
 * every count must equal `leads`: a contender that skips a write is measured doing less than the
 * other (the hand-written reference once recorded no send, conversation or event because its second
 * statement matched no row, and looked a third faster for it). `query(sql)` runs one statement.
 */
export async function countLeadWrites(query, schema) {
  const s = `"${schema}"`;
  const { rows } = await query(
    `SELECT (SELECT count(*) FROM ${s}.lead_events)::int AS leads,
       (SELECT count(*) FROM ${s}.contacts)::int AS contacts,
       (SELECT count(*) FROM ${s}.opportunities)::int AS opportunities,
       (SELECT count(*) FROM ${s}.consent_ledger WHERE kind = 'granted')::int AS consent,
       (SELECT count(*) FROM ${s}.outbound_messages WHERE status = 'sent')::int AS sent,
       (SELECT count(*) FROM ${s}.conversations)::int AS conversations,
       (SELECT count(*) FROM ${s}.messages)::int AS messages,
       (SELECT count(*) FROM ${s}.events WHERE type = 'conversation.started')::int AS started`,
  );
  return rows[0];
}

/** The counts of `countLeadWrites` that differ from its lead count, as "name n" (empty when all match). */
export function missingLeadWrites(writes) {
  return Object.entries(writes)
    .filter(([name, n]) => name !== "leads" && n !== writes.leads)
    .map(([name, n]) => `${name} ${n}`);
}

/** Clock ticks per second of /proc's CPU times. */
function clockTicksPerSecond() {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** CPU microseconds (user + system) process `pid` has used so far, from /proc (Linux). */
export function processCpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicksPerSecond();
}

/**
 * CPU ticks (user + system) of every process named `postgres` on this machine, by pid: backends,
 * WAL writer, checkpointer. Null when there are none to read: not Linux, or a PostgreSQL on
 * another machine (`databaseUrl`'s host is not loopback), whose CPU this machine can't see.
 */
function postgresCpuTicks(databaseUrl) {
  const host = new URL(databaseUrl).hostname;
  if (!["127.0.0.1", "localhost", "[::1]", ""].includes(host)) return null;
  let entries;
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  const ticks = new Map();
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    const close = stat.lastIndexOf(")");
    if (!stat.slice(stat.indexOf("(") + 1, close).startsWith("postgres")) continue;
    // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
    const fields = stat.slice(close + 2).split(" ");
    ticks.set(pid, Number(fields[11]) + Number(fields[12]));
  }
  return ticks.size > 0 ? ticks : null;
}

/**
 * The ticks spent since `start` by the processes alive at `end` (a process that started meanwhile
 * counts whole). Not a difference of totals: a backend that exits in the window (another server's
 * pool closing an idle connection) would take its whole life's CPU out of the sum, and did (one
 * probe read a negative figure). What an exiting process spent since the mark is lost instead; the
 * servers measured keep their pools' connections through their rounds.
 */
function ticksSince(start, end) {
  let ticks = 0;
  for (const [pid, now] of end) ticks += now - (start.get(pid) ?? 0);
  return ticks;
}

/**
 * What PostgreSQL spent over a window: `mark()` starts it, `perRequest(n)` answers
 * `{ postgresCpuUsPerRequest, walBytesPerRequest }` since the mark, divided by the `n` requests
 * completed in it. The CPU is every local postgres process's (null when the server is elsewhere;
 * other databases' work on the same server counts too, so keep the machine quiet); the WAL is how
 * far `pg_current_wal_lsn()` moved, which tells two servers' durable writes apart (the reference
 * that skipped half its writes wrote 4.8 KB a lead against Vitrina's 8.3 KB).
 */
export async function postgresMeter(databaseUrl) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const microsPerTick = 1e6 / clockTicksPerSecond();
  const walBytes = async () =>
    Number((await client.query("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn AS bytes")).rows[0].bytes);
  let start;
  return {
    async mark() {
      start = { cpu: postgresCpuTicks(databaseUrl), wal: await walBytes() };
    },
    async perRequest(requests) {
      const cpu = postgresCpuTicks(databaseUrl);
      const wal = await walBytes();
      return {
        postgresCpuUsPerRequest:
          cpu === null || start.cpu === null ? null : (ticksSince(start.cpu, cpu) * microsPerTick) / requests,
        walBytesPerRequest: (wal - start.wal) / requests,
      };
    },
    /**
     * Runs a CHECKPOINT and resolves once it is done (false, not an error, when the role may not:
     * CHECKPOINT needs a superuser or pg_checkpoint).
     */
    async checkpoint() {
      return client.query("CHECKPOINT").then(
        () => true,
        () => false,
      );
    },
    close: () => client.end(),
  };
}
