// Signed leads/s through @vitrina/http-node with the memory and PostgreSQL adapters, next to a
// bare node:http server that only reads the body, verifies the HMAC and answers 200 (the
// reference). Server and load generator run in two separate processes; the generator's own
// ceiling is measured first, on a server answering a fixed 200, to show it isn't the bottleneck.
// Each server is measured in three alternating rounds and keeps its median round (single rounds
// of the PostgreSQL servers spread by a quarter from run to run on this machine).
import { measure } from "./load/drive.mjs";
import { bottleneckVerdict, generatorCeiling, loadRow, medianRound } from "./load/report.mjs";
import { statementsPerLead } from "./statements.mjs";

const connections = 32;
const ROUNDS = 3;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 3000);

export const name = `lead intake: http-node + memory / PostgreSQL vs bare node:http HMAC reference (${connections} connections, distinct leads, median of ${ROUNDS} alternating rounds, ${durationMs / 1000} s each)`;

const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function postgresAnswers() {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const leads = (kind) =>
  measure("lead-server.mjs", [kind], { profile: "lead", connections, durationMs }, { DATABASE_URL });

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
  const hasPostgres = await postgresAnswers();
  const kinds = ["bare", "vitrina-memory", ...(hasPostgres ? ["reference-postgres", "vitrina-postgres"] : [])];
  const rounds = Object.fromEntries(kinds.map((kind) => [kind, []]));
  for (let round = 0; round < ROUNDS; round++) for (const kind of kinds) rounds[kind].push(await leads(kind));
  const [bare, memory] = [medianRound(rounds.bare), medianRound(rounds["vitrina-memory"])];
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
    ...(hasPostgres ? await statementsRows() : []),
  ];
}
