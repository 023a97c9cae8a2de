// Signed leads/s through @vitrina/http-node with the memory and PostgreSQL adapters, next to a
// bare node:http server that only reads the body, verifies the HMAC and answers 200 (the
// reference). Server and load generator run in two separate processes; the generator's own
// ceiling is measured first, on a server answering a fixed 200, to show it isn't the bottleneck.
// Every server is started once and warmed up once (WARMUP_MS), then measured in three alternating
// rounds, each keeping its median round (single rounds of the PostgreSQL servers spread by a
// quarter from run to run on this machine). A server lives through all its rounds, as a production
// server runs warm: restarted for every round with a 1 s warm-up, the PostgreSQL servers at
// 300 leads/s were still compiling hot code in the measured window (V8's compiler threads took
// about 480 µs of CPU per Vitrina lead, 50 µs per reference lead, from /proc per thread).
import { availableParallelism } from "node:os";
import { measureServer, startServer } from "./load/drive.mjs";
import { bottleneckVerdict, generatorCeiling, loadRow, medianRound } from "./load/report.mjs";
import { DATABASE_URL, missingLeadWrites, postgresAnswers, postgresMeter } from "./lib.mjs";
import { statementsPerLead } from "./statements.mjs";

const connections = 32;
/** The p99 Vitrina aims for on PostgreSQL intake at `connections` (the row says how far it is and why). */
const P99_TARGET_MS = 50;
const ROUNDS = 3;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 3000);
/**
 * The first round's warm-up: 5 s for the PostgreSQL servers (at a few hundred leads/s V8 is still
 * compiling their hot code after 1 s), 2 s for the others, which pass the same number of requests
 * through their code in that time. Later rounds re-warm for a moment (connections, caches).
 */
const WARMUP_MS = 5000;
const WARMUP_MS_WITHOUT_POSTGRES = 2000;
const REWARM_MS = 500;
/** Request numbers per round: each round's leads are new persons, never the previous rounds'. */
const ROUND_STRIDE = 1_000_000;

export const name = `lead intake: http-node + memory / PostgreSQL vs bare node:http HMAC reference (${connections} connections, distinct leads, ${WARMUP_MS / 1000} s warm-up on PostgreSQL and ${WARMUP_MS_WITHOUT_POSTGRES / 1000} s without, median of ${ROUNDS} alternating rounds of ${durationMs / 1000} s on the same warm servers)`;

const isPostgresKind = (kind) => kind.endsWith("postgres");

/**
 * Measures every server in `kinds` in ROUNDS alternating rounds; resolves `{ rounds: { kind: [round,
 * …] }, writes: { kind: counts } }`, with what each PostgreSQL server's leads wrote over all its
 * rounds (see countLeadWrites).
 */
async function alternatingRounds(kinds) {
  const servers = {};
  const rounds = Object.fromEntries(kinds.map((kind) => [kind, []]));
  const writes = {};
  let meter = null;
  // Whether PostgreSQL refused a round's CHECKPOINT (a role without the right): said in the p99 row.
  let checkpointsRefused = false;
  try {
    for (const kind of kinds) servers[kind] = await startServer("lead-server.mjs", [kind], { DATABASE_URL });
    meter = kinds.some(isPostgresKind) ? await postgresMeter(DATABASE_URL) : null;
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of kinds) {
        const server = servers[kind];
        // The PostgreSQL servers' windows also take PostgreSQL's CPU and WAL (marked with the server's CPU).
        const metered = isPostgresKind(kind) ? { ...server, markCpu: () => meter.mark().then(server.markCpu) } : server;
        // A checkpoint's sync phase stalls commits for tens of ms; one started now keeps the next out
        // of this round's window, for both PostgreSQL servers alike (bench/README.md has the figures).
        if (isPostgresKind(kind) && !(await meter.checkpoint())) checkpointsRefused = true;
        const result = await measureServer(metered, {
          profile: "lead",
          connections,
          durationMs,
          warmupMs: round > 0 ? REWARM_MS : isPostgresKind(kind) ? WARMUP_MS : WARMUP_MS_WITHOUT_POSTGRES,
          firstRequest: round * ROUND_STRIDE,
        });
        if (isPostgresKind(kind)) Object.assign(result, await meter.perRequest(result.requests));
        rounds[kind].push(result);
      }
    }
    for (const kind of kinds) {
      const counts = await servers[kind].writes();
      if (counts !== null) writes[kind] = counts;
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    await meter?.close();
  }
  return { rounds, writes, checkpointsRefused };
}

/**
 * One row per PostgreSQL server: what its leads wrote. Throws when a server skipped a write, since
 * its rate would then measure less work than the other's.
 */
function writesRows(writes) {
  return Object.entries(writes).map(([kind, counts]) => {
    const missing = missingLeadWrites(counts);
    if (missing.length > 0)
      throw new Error(`${kind} did not write every lead's rows (${counts.leads} leads; ${missing.join(", ")})`);
    return {
      case: `  rows written per lead, ${kind} (every round)`,
      value: counts.leads,
      unit: "leads",
      note: "each with its contact, opportunity, consent evidence, first message marked sent, conversation, message and conversation.started event",
    };
  });
}

/** A PostgreSQL round's CPU per lead on this machine: generator + server + PostgreSQL, or null when PostgreSQL's is unknown. */
function machineCpuPerLead(r) {
  if (r.postgresCpuUsPerRequest === null || r.postgresCpuUsPerRequest === undefined) return null;
  return r.clientCpuUsPerRequest + r.serverCpuUsPerRequest + r.postgresCpuUsPerRequest;
}

/**
 * The PostgreSQL p99 next to the reference's, with what bounds both. In a closed loop of N
 * connections the p50 is about N ÷ rate, so the p99 follows the rate, and the rate is bounded by the
 * CPU a lead costs the whole machine (generator, server and PostgreSQL share its cores): a p99 line
 * the hand-written reference misses too is one this machine does not allow for these writes.
 */
function latencyRow(vitrina, reference, checkpointsRefused) {
  const cores = availableParallelism();
  const bound = (cpu) => `${cpu.toFixed(0)} µs (at most ${((cores * 1e6) / cpu).toFixed(0)} leads/s on ${cores} cores)`;
  const [ours, theirs] = [machineCpuPerLead(vitrina), machineCpuPerLead(reference)];
  const misses = reference.p99 >= P99_TARGET_MS ? " (it misses the line too)" : "";
  const notes = [
    `hand-written reference ${reference.p99.toFixed(1)} ms in the same rounds${misses}`,
    `p50 ≈ ${connections} ÷ rate`,
  ];
  if (ours !== null && theirs !== null)
    notes.push(`CPU per lead, whole machine: Vitrina ${bound(ours)}, reference ${bound(theirs)}`);
  if (checkpointsRefused)
    notes.push(
      "PostgreSQL refused the CHECKPOINT before a round (the role may not run one), so a checkpoint may have fallen inside a window",
    );
  return {
    case: `  p99 at ${connections} connections, PostgreSQL (target < ${P99_TARGET_MS} ms)`,
    value: vitrina.p99,
    unit: "ms",
    note: notes.join("; "),
  };
}

/** Statements per lead for a new person (what the load rows send) and for one already welcomed. */
async function statementsRows() {
  const rows = [];
  for (const known of [false, true]) {
    const { statements, commits, byKind } = await statementsPerLead(DATABASE_URL, { known });
    byKind.delete("DROP");
    const kinds = [...byKind].map(([kind, n]) => `${kind} ${(n / 50).toFixed(1)}`).join(", ");
    rows.push({
      case: known
        ? "  the same, a known person's second lead (welcome blocked)"
        : "statements (round trips) per lead, PostgreSQL, new person",
      value: statements,
      unit: "statements",
      note: `${commits.toFixed(1)} commits (a write outside BEGIN counts as one); ${kinds}${known ? "" : "; reference: 2 statements, 2 commits"}`,
    });
  }
  return rows;
}

export async function run() {
  const ceiling = await generatorCeiling({ connections, durationMs });
  const hasPostgres = await postgresAnswers(DATABASE_URL);
  const kinds = [
    "bare",
    "vitrina-memory",
    "vitrina-stub-writes",
    "vitrina-keep-writes",
    ...(hasPostgres ? ["reference-postgres", "vitrina-postgres"] : []),
  ];
  const { rounds, writes, checkpointsRefused } = await alternatingRounds(kinds);
  const [bare, memory] = [medianRound(rounds.bare), medianRound(rounds["vitrina-memory"])];
  const stubbedWrites = medianRound(rounds["vitrina-stub-writes"]);
  const keptWrites = medianRound(rounds["vitrina-keep-writes"]);
  const referencePostgres = hasPostgres ? medianRound(rounds["reference-postgres"]) : null;
  const postgres = hasPostgres ? medianRound(rounds["vitrina-postgres"]) : null;
  const reference = {
    label: "bare HMAC",
    perSecond: bare.perSecond,
    serverCpuUsPerRequest: bare.serverCpuUsPerRequest,
  };
  const fastestVitrina = Math.max(memory.perSecond, postgres?.perSecond ?? 0);
  return [
    ...ceiling.rows,
    bottleneckVerdict(ceiling.perSecond, "Vitrina", fastestVitrina),
    loadRow("bare node:http HMAC (reference)", bare),
    loadRow("vitrina http-node + memory", memory, reference),
    // What the memory row costs apart from its storage writes: the distance no adapter can close.
    loadRow("  diagnostic: the same with a new person's two writes stubbed", stubbedWrites, reference),
    // The least a store in the process's heap costs: the records kept as handed, nothing else.
    loadRow("  diagnostic: stubbed, but keeping the records the two writes get", keptWrites, reference),
    ...(postgres
      ? [
          loadRow("hand-written node:http + pg, 2 round trips (reference)", referencePostgres),
          loadRow("vitrina http-node + PostgreSQL", postgres, {
            label: "hand-written pg",
            perSecond: referencePostgres.perSecond,
            serverCpuUsPerRequest: referencePostgres.serverCpuUsPerRequest,
          }),
          latencyRow(postgres, referencePostgres, checkpointsRefused),
        ]
      : [{ case: "vitrina http-node + PostgreSQL", value: "skipped", note: `no server at ${DATABASE_URL}` }]),
    ...writesRows(writes),
    ...(hasPostgres ? await statementsRows() : []),
  ];
}
