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
import { measureServer, startServer } from "./load/drive.mjs";
import { bottleneckVerdict, generatorCeiling, loadRow, medianRound } from "./load/report.mjs";
import { DATABASE_URL, missingLeadWrites, postgresAnswers, postgresMeter } from "./lib.mjs";
import { statementsPerLead } from "./statements.mjs";

const connections = 32;
const ROUNDS = 3;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 3000);
/** The first round's warm-up; later rounds re-warm for a moment (connections, caches) on a warm JIT. */
const WARMUP_MS = 5000;
const REWARM_MS = 500;
/** Request numbers per round: each round's leads are new persons, never the previous rounds'. */
const ROUND_STRIDE = 1_000_000;

export const name = `lead intake: http-node + memory / PostgreSQL vs bare node:http HMAC reference (${connections} connections, distinct leads, ${WARMUP_MS / 1000} s warm-up, median of ${ROUNDS} alternating rounds of ${durationMs / 1000} s on the same warm servers)`;

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
  try {
    for (const kind of kinds) servers[kind] = await startServer("lead-server.mjs", [kind], { DATABASE_URL });
    meter = kinds.some(isPostgresKind) ? await postgresMeter(DATABASE_URL) : null;
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of kinds) {
        const server = servers[kind];
        // The PostgreSQL servers' windows also take PostgreSQL's CPU and WAL (marked with the server's CPU).
        const metered = isPostgresKind(kind) ? { ...server, markCpu: () => meter.mark().then(server.markCpu) } : server;
        const result = await measureServer(metered, {
          profile: "lead",
          connections,
          durationMs,
          warmupMs: round === 0 ? WARMUP_MS : REWARM_MS,
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
  return { rounds, writes };
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
      note: "each with its contact, opportunity, first message marked sent, conversation, message and conversation.started event",
    };
  });
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
    ...(hasPostgres ? ["reference-postgres", "vitrina-postgres"] : []),
  ];
  const { rounds, writes } = await alternatingRounds(kinds);
  const [bare, memory] = [medianRound(rounds.bare), medianRound(rounds["vitrina-memory"])];
  const stubbedWrites = medianRound(rounds["vitrina-stub-writes"]);
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
    ...(postgres
      ? [
          loadRow("hand-written node:http + pg, 2 round trips (reference)", referencePostgres),
          loadRow("vitrina http-node + PostgreSQL", postgres, {
            label: "hand-written pg",
            perSecond: referencePostgres.perSecond,
            serverCpuUsPerRequest: referencePostgres.serverCpuUsPerRequest,
          }),
        ]
      : [{ case: "vitrina http-node + PostgreSQL", value: "skipped", note: `no server at ${DATABASE_URL}` }]),
    ...writesRows(writes),
    ...(hasPostgres ? await statementsRows() : []),
  ];
}
