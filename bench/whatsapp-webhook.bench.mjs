// Signed WhatsApp webhook batches/s through the webhook route of the demo server as deployed
// (examples/server: serveVitrina with its in-process outbox worker, info logging, a subscription to
// conversation.started, the demo's WhatsApp channel; PostgreSQL when one answers at DATABASE_URL,
// else PGlite), next to a bare node:http server that reads the body, verifies X-Hub-Signature-256
// and answers 200 (the reference), in the same run. Two batch shapes: one inbound text (from one of
// 1,000 people, so after the first pass a reply in an open thread), and 100 statuses (each for a
// message of its own). Server, receiver and load generator run in separate processes; the
// generator's ceiling is measured first. Each server is started once, warmed up, and measured in
// three alternating rounds per shape, keeping the median. Then, on PostgreSQL, how long one batch of
// 1,000 statuses takes from POST to answer (the answer comes once every status is durable).
import { measureServer, startServer } from "./load/drive.mjs";
import { bottleneckVerdict, generatorCeiling, loadRow, medianRound } from "./load/report.mjs";
import { DATABASE_URL, percentile, postgresAnswers, postgresMeter } from "./lib.mjs";
import { postWebhook, statusBatch } from "../examples/whatsapp-provider/src/provider.mjs";

const connections = 16;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 3000);
const ROUNDS = 3;
const WARMUP_MS = 3000;
const REWARM_MS = 500;
const STATUS_BATCH = 100;
const BIG_BATCH = 1000;
const BIG_BATCH_RUNS = 7;

export const name = `WhatsApp webhook: the demo server (worker, logging, a subscription) vs bare node:http signature check (${connections} connections, batches of 1 inbound text and of ${STATUS_BATCH} statuses, median of ${ROUNDS} alternating rounds of ${durationMs / 1000} s)`;

const shapes = [
  { profile: "whatsapp-text", label: "1 inbound text", batchSize: 1 },
  { profile: "whatsapp-statuses", label: `${STATUS_BATCH} statuses`, batchSize: STATUS_BATCH },
];

/** Times one signed batch of BIG_BATCH statuses, BIG_BATCH_RUNS times (fresh message ids each): ms each, sorted. */
async function bigBatchTimes(info) {
  const times = [];
  for (let run = 0; run < BIG_BATCH_RUNS; run++) {
    const batch = statusBatch(
      info.phoneNumberId,
      Array.from({ length: BIG_BATCH }, (_, k) => ({
        id: `wamid.big${Date.now()}x${run}x${k}`,
        status: ["sent", "delivered", "read"][k % 3],
        phoneE164: `+5696${String(k).padStart(7, "0")}`,
      })),
    );
    const started = performance.now();
    const { status, body } = await postWebhook(info.url, info.appSecret, batch);
    const ms = performance.now() - started;
    if (status !== 200 || body.statuses?.recorded !== BIG_BATCH)
      throw new Error(`a batch of ${BIG_BATCH} statuses was not recorded: ${status} ${JSON.stringify(body)}`);
    times.push(ms);
  }
  return times.sort((a, b) => a - b);
}

export async function run() {
  const ceiling = await generatorCeiling({ connections, durationMs, secondOpinion: false });
  const onPostgres = await postgresAnswers(DATABASE_URL);
  const receiver = await startServer("receiver.mjs");
  const servers = {};
  const rounds = Object.fromEntries(shapes.flatMap((s) => ["bare", "demo"].map((k) => [`${k} ${s.profile}`, []])));
  let big = null;
  let meter = null;
  try {
    servers.bare = await startServer("whatsapp-webhook-server.mjs", ["bare"]);
    servers.demo = await startServer(
      "whatsapp-webhook-server.mjs",
      ["vitrina-demo", ...(onPostgres ? [DATABASE_URL] : [])],
      {
        BENCH_RECEIVER_URL: receiver.info.url,
      },
    );
    meter = onPostgres ? await postgresMeter(DATABASE_URL) : null;
    for (let round = 0; round < ROUNDS; round++)
      for (const shape of shapes)
        for (const kind of ["bare", "demo"]) {
          const server = servers[kind];
          const target = { ...server, info: { ...server.info, batchSize: shape.batchSize } };
          const metered =
            kind === "demo" && meter ? { ...target, markCpu: () => meter.mark().then(server.markCpu) } : target;
          if (kind === "demo" && meter) await meter.checkpoint();
          const result = await measureServer(metered, {
            profile: shape.profile,
            connections,
            durationMs,
            warmupMs: round === 0 ? WARMUP_MS : REWARM_MS,
          });
          if (kind === "demo" && meter) Object.assign(result, await meter.perRequest(result.requests));
          rounds[`${kind} ${shape.profile}`].push(result);
        }
    if (onPostgres) big = await bigBatchTimes(servers.demo.info);
  } finally {
    await Promise.all([...Object.values(servers), receiver].map((server) => server.stop()));
    await meter?.close();
  }
  const storage = servers.demo.info.storage;
  const rows = [...ceiling.rows];
  const medians = shapes.map((shape) => ({
    shape,
    bare: medianRound(rounds[`bare ${shape.profile}`]),
    demo: medianRound(rounds[`demo ${shape.profile}`]),
  }));
  rows.push(bottleneckVerdict(ceiling.perSecond, "demo", Math.max(...medians.map((m) => m.demo.perSecond))));
  for (const { shape, bare, demo } of medians) {
    rows.push(loadRow(`bare node:http X-Hub-Signature-256 check, ${shape.label} (reference)`, bare));
    rows.push(
      loadRow(`vitrina demo server, ${shape.label} (${storage})`, demo, {
        label: "bare",
        perSecond: bare.perSecond,
        serverCpuUsPerRequest: bare.serverCpuUsPerRequest,
      }),
    );
    if (shape.batchSize > 1)
      rows.push({
        case: `  the same in statuses/s`,
        value: demo.perSecond * shape.batchSize,
        unit: "statuses/s",
      });
  }
  rows.push(
    big === null
      ? {
          case: `one batch of ${BIG_BATCH} statuses, PostgreSQL`,
          value: "skipped",
          note: `no server at ${DATABASE_URL}`,
        }
      : {
          case: `one batch of ${BIG_BATCH} statuses, POST to answer, PostgreSQL`,
          value: percentile(big, 50),
          unit: "ms",
          note: `median of ${BIG_BATCH_RUNS} (min ${big[0].toFixed(1)}, max ${big.at(-1).toFixed(1)} ms), one at a time on the warm demo server; the answer comes once every status is recorded`,
        },
  );
  return rows;
}
