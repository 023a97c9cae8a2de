// Lead intake as users deploy it (bench/servers/deployed-server.mjs): the demo server served by
// serveVitrina with its in-process worker, a pino logger at info writing to a file, the WhatsApp
// Cloud transport sending to a fake Graph API and a subscription to conversation.started, on
// PostgreSQL (DATABASE_URL, the pool storageFromEnv makes) and on the embedded default (PGlite);
// beside each, the hand-written reference doing the same durable work against the same peers. The
// other lead-intake rows (lead-intake.bench.mjs) serve a Vitrina built for the bench, with none of
// that: diagnostics next to these. Three alternating rounds on warm servers, median kept, as there.
import { startServer, measureServer } from "./load/drive.mjs";
import { generatorCeiling, bottleneckVerdict, loadRow, medianRound, roundByRound } from "./load/report.mjs";
import { DATABASE_URL, postgresAnswers, postgresMeter } from "./lib.mjs";

const connections = 32;
const ROUNDS = 3;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 3000);
/**
 * Load before the first measured round, for every server alike: long enough that V8 is done
 * optimizing the demo server's code. After 5 s, `perf` found 10–21 % of its CPU in V8's compilers
 * during the measured rounds (the reference's 6–10 %), against 2.4 % after 45 s: the rounds timed
 * the JIT's warm-up, which a deployed server pays once, in its first minute.
 */
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 30_000);
const REWARM_MS = 500;
const ROUND_STRIDE = 1_000_000;
/** What the issue asks of the deployed configuration: rate and p99 next to the reference's. */
const TARGET_RATIO = 0.8;
const TARGET_P99_FACTOR = 1.5;

export const name = `lead intake as deployed: the demo server (serveVitrina + worker, pino to a file, Cloud API transport to a fake Graph API, a conversation.started subscription) vs a hand-written server doing the same durable work (${connections} connections, median of ${ROUNDS} alternating rounds of ${durationMs / 1000} s)`;

async function alternatingRounds(kinds, meter) {
  const servers = {};
  const rounds = Object.fromEntries(kinds.map((kind) => [kind, []]));
  const peers = {};
  try {
    for (const kind of kinds) servers[kind] = await startServer("deployed-server.mjs", [kind], { DATABASE_URL });
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of kinds) {
        const server = servers[kind];
        const onPostgres = kind.endsWith("postgres") && meter !== null;
        if (onPostgres) await meter.checkpoint();
        const metered = onPostgres ? { ...server, markCpu: () => meter.mark().then(server.markCpu) } : server;
        const result = await measureServer(metered, {
          profile: "lead",
          connections,
          durationMs,
          warmupMs: round > 0 ? REWARM_MS : WARMUP_MS,
          firstRequest: round * ROUND_STRIDE,
        });
        if (onPostgres) Object.assign(result, await meter.perRequest(result.requests));
        rounds[kind].push(result);
      }
    }
    // Let the workers drain what the last round queued before counting what reached the peers.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    for (const kind of kinds) peers[kind] = await servers[kind].writes();
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
  return { rounds, peers };
}

/** The p99 next to the reference's, against the 1.5× line. */
function p99Row(label, ours, theirs) {
  const factor = ours.p99 / theirs.p99;
  return {
    case: `  p99 ${label} (target ≤ ${TARGET_P99_FACTOR}× the reference's)`,
    value: ours.p99,
    unit: "ms",
    note: `reference ${theirs.p99.toFixed(1)} ms: ${factor.toFixed(2)}× ${factor <= TARGET_P99_FACTOR ? "(meets)" : "(misses)"}`,
  };
}

/** What reached the fake Graph API and the receiver: every welcome sent, every delivery verified. */
function peersRow(kind, counts, requests) {
  if (counts.unverified > 0) throw new Error(`${kind}: ${counts.unverified} deliveries failed their signature check`);
  if (counts.sends < requests) throw new Error(`${kind}: ${counts.sends} welcomes sent for ${requests} measured leads`);
  return {
    case: `  peers, ${kind} (every round and warm-up)`,
    value: counts.sends,
    unit: "welcomes",
    note: `${counts.received} conversation.started deliveries received and verified`,
  };
}

/** `rounds`: each side's rounds in the order they ran, for the round-by-round ratios. */
function pairRows(storage, reference, vitrina, peers, rounds) {
  const ratio = vitrina.perSecond / reference.perSecond;
  return [
    loadRow(`hand-written, same durable work, ${storage} (reference)`, reference),
    loadRow(`vitrina as deployed, ${storage}`, vitrina, {
      label: "reference",
      perSecond: reference.perSecond,
      serverCpuUsPerRequest: reference.serverCpuUsPerRequest,
    }),
    {
      case: `  ratio ${storage} (target ≥ ${TARGET_RATIO})`,
      value: Number(ratio.toFixed(2)),
      unit: "×",
      note: `${ratio >= TARGET_RATIO ? "meets the target" : "misses the target"}; of the medians (${roundByRound(rounds.vitrina, rounds.reference)})`,
    },
    p99Row(storage, vitrina, reference),
    ...peers,
  ];
}

export async function run() {
  const ceiling = await generatorCeiling({ connections, durationMs, secondOpinion: false });
  const hasPostgres = await postgresAnswers(DATABASE_URL);
  const kinds = [
    "reference-pglite",
    "vitrina-pglite",
    ...(hasPostgres ? ["reference-postgres", "vitrina-postgres"] : []),
  ];
  const meter = hasPostgres ? await postgresMeter(DATABASE_URL) : null;
  let measured;
  try {
    measured = await alternatingRounds(kinds, meter);
  } finally {
    await meter?.close();
  }
  const median = Object.fromEntries(kinds.map((kind) => [kind, medianRound(measured.rounds[kind])]));
  const total = (kind) => measured.rounds[kind].reduce((sum, r) => sum + r.requests, 0);
  const peers = (kind) => peersRow(kind, measured.peers[kind], total(kind));
  const fastest = Math.max(...kinds.filter((k) => k.startsWith("vitrina")).map((k) => median[k].perSecond));
  return [
    ...ceiling.rows,
    bottleneckVerdict(ceiling.perSecond, "Vitrina", fastest),
    ...pairRows(
      "PGlite",
      median["reference-pglite"],
      median["vitrina-pglite"],
      [peers("reference-pglite"), peers("vitrina-pglite")],
      { reference: measured.rounds["reference-pglite"], vitrina: measured.rounds["vitrina-pglite"] },
    ),
    ...(hasPostgres
      ? pairRows(
          "PostgreSQL",
          median["reference-postgres"],
          median["vitrina-postgres"],
          [peers("reference-postgres"), peers("vitrina-postgres")],
          { reference: measured.rounds["reference-postgres"], vitrina: measured.rounds["vitrina-postgres"] },
        )
      : [{ case: "PostgreSQL rows", value: "skipped", note: `no server at ${DATABASE_URL}` }]),
  ];
}
