// Webhook deliveries/s from one outbox worker to a local 2xx receiver, and commit-to-delivery
// latency, on the BUILT packages (`pnpm build` first), with the memory adapter and, when a server
// answers at DATABASE_URL, PostgreSQL. For the rates, every contender (Vitrina's worker on each
// storage, graphile-worker with each HTTP client) drains in a process of its own
// (servers/outbox-drainer.mjs) that lives through its warm-up and measured drains, and the receiver
// is a node:http server in another (servers/receiver.mjs): no contender shares a heap, a JIT or an
// event loop with another, with the receiver or with the bench's other sections, and each row reports
// the worker's CPU per delivery and the receiver's, with the share of a core the receiver used (which
// shows it wasn't what limited the rate). The latency rows keep worker and receiver in this process:
// one event at a time leaves nothing to share, and the commit and the arrival must be read off one
// clock (that receiver checks every signature too, after stamping the arrival). Vitrina sends as
// `nodeWebhookOptions()` sets it up on Node; graphile-worker's task POSTs with `fetch`, as its task
// code usually would, and, in a second reference row, with undici's request API like Vitrina, to
// show what the HTTP client is worth. On PostgreSQL each drain's tables
// are ANALYZEd once its backlog is queued, the reference's too (analyzeSchema in lib.mjs says why).
import { createServer } from "node:http";
import { startServer } from "./load/drive.mjs";
import { postgresFigures, roundByRound } from "./load/report.mjs";
import { DATABASE_URL, percentile, postgresAnswers, postgresMeter } from "./lib.mjs";
import {
  freshPostgresStorage,
  memoryStorageForBench,
  signatureTally,
  vitrinaWithSubscription,
} from "./outbox-setup.mjs";

export const name = "webhooks: one outbox worker → local 2xx receiver (each in its own process)";

/** The longest a drain may take: the slowest contender drains 4,000 deliveries in a few seconds. */
const DRAIN_DEADLINE_MS = 120_000;

/**
 * One drain of `total` deliveries by `drainer` (a servers/outbox-drainer.mjs process) into
 * `receiver` (servers/receiver.mjs): the backlog is queued with no worker running, then both
 * processes' CPU is marked, the worker set going, and the clock stopped once the last delivery
 * arrived. Resolves with deliveries/s and each side's CPU per delivery in µs; throws when the
 * receiver found a delivery whose signature did not verify. With `meter` (a postgresMeter, for the
 * contenders on PostgreSQL), PostgreSQL's CPU and WAL per delivery over the same window too.
 */
async function timeDrain(drainer, receiver, total, pool = {}, meter = null) {
  await drainer.ask({ queue: { total, url: receiver.info.url, pool } }, (m) => m === "queued");
  await receiver.ask({ expect: total }, (m) => m === "armed");
  const reached = receiver.next((m) => m?.reached !== undefined);
  await Promise.all([drainer.markCpu(), receiver.markCpu(), meter?.mark()]);
  const started = performance.now();
  const going = await drainer.ask("go", (m) => m === "started" || m?.failed !== undefined);
  if (going.failed !== undefined) throw new Error(`the drainer could not start: ${going.failed}`);
  // A drain that stalls (a receiver or a storage failing every attempt) ends the bench with a reason
  // instead of waiting forever.
  let stalled;
  await Promise.race([
    reached,
    new Promise((_, reject) => {
      stalled = setTimeout(
        () => reject(new Error(`the receiver got fewer than ${total} deliveries within ${DRAIN_DEADLINE_MS / 1000} s`)),
        DRAIN_DEADLINE_MS,
      );
    }),
  ]).finally(() => clearTimeout(stalled));
  const seconds = (performance.now() - started) / 1000;
  const { unverified, firstReason } = await reached;
  if (unverified > 0)
    throw new Error(`${unverified} of ${total} deliveries failed the receiver's signature check (${firstReason})`);
  const [workerCpu, receiverCpu, database] = await Promise.all([
    drainer.readCpu(),
    receiver.readCpu(),
    meter?.perRequest(total),
  ]);
  await drainer.ask("finish", (m) => m === "finished");
  return {
    perSecond: total / seconds,
    workerCpuUs: workerCpu / total,
    receiverCpuUs: receiverCpu / total,
    ...database,
  };
}

/**
 * A drain's rate as a row, its CPU figures in the note: the worker's and the receiver's, and on
 * PostgreSQL the server's (every local postgres process) with the WAL each delivery wrote.
 */
function drainRow(label, drained, note) {
  const receiverBusy = (drained.receiverCpuUs * drained.perSecond) / 1e4;
  const cpu = `CPU/delivery worker ${drained.workerCpuUs.toFixed(0)} µs, receiver ${drained.receiverCpuUs.toFixed(0)} µs (${receiverBusy.toFixed(0)} % of a core)${postgresFigures(drained, "delivery")}`;
  return { case: label, value: drained.perSecond, unit: "deliveries/s", note: note ? `${note}; ${cpu}` : cpu };
}

/**
 * The latency rows' receiver, in this process: stamps each delivery's arrival the moment its body is
 * in, then checks its signature (after the stamp, so the check's 15–20 µs is not counted as delivery
 * time). `signatures` holds the count of those that failed.
 */
async function startReceiver(onDelivery) {
  const signatures = signatureTally();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      onDelivery(req.headers["vitrina-event-id"], performance.now());
      signatures.check(Buffer.concat(chunks).toString("utf8"), req.headers["vitrina-signature"]);
      res.statusCode = 204;
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    signatures,
    close: () => new Promise((r) => server.close(r)),
  };
}

/**
 * One event at a time with a worker idling: time from the commit returning to the receiver's
 * handler, over `total` events after `warmup` untimed ones. The drains ran in other processes, so
 * this process's worker code is cold until then: measured cold, the first events' compiling put
 * the memory row's p99 at 3.5–7.4 ms against 1.0–2.1 ms warm.
 */
async function latency(makeStorage, total, warmup = 1000) {
  let arrived = () => {};
  const receiver = await startReceiver((_id, at) => arrived(at));
  const { vitrina, emit } = await vitrinaWithSubscription(await makeStorage(), {}, receiver.url);
  const worker = vitrina.outbox.startWorker();
  const samples = [];
  for (let i = 0; i < warmup + total; i++) {
    // One event in flight at a time, so the next arrival is this event's.
    const got = new Promise((resolve) => (arrived = resolve));
    await emit();
    const committed = performance.now();
    const arrival = await got;
    if (i >= warmup) samples.push(arrival - committed);
  }
  await worker.stop();
  await vitrina.close();
  await receiver.close();
  const { unverified, firstReason } = receiver.signatures;
  if (unverified > 0)
    throw new Error(
      `${unverified} of ${warmup + total} deliveries failed the latency receiver's signature check (${firstReason})`,
    );
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function measure(label, kind, makeStorage, receiver, { events, warmupEvents }) {
  const drainer = await startServer("outbox-drainer.mjs", [kind], { DATABASE_URL });
  const meter = kind === "vitrina-postgres" ? await postgresMeter(DATABASE_URL) : null;
  let capped, pool32, pool128;
  try {
    // An untimed warm-up drain: after 300 deliveries the first drain still paid for the JIT (about
    // twice the worker CPU per delivery of the drains after it).
    await timeDrain(drainer, receiver, warmupEvents);
    // One receiver: by default it gets half of the pool (the per-subscription cap).
    capped = await timeDrain(drainer, receiver, events, {}, meter);
    pool32 = await timeDrain(drainer, receiver, events, { concurrency: 32, perSubscriptionConcurrency: 32 }, meter);
    pool128 = await timeDrain(drainer, receiver, events, { concurrency: 128, perSubscriptionConcurrency: 128 }, meter);
  } finally {
    await drainer.stop();
    await meter?.close();
  }
  const lat = await latency(makeStorage, 300);
  return [
    drainRow(
      `${label}: deliveries/s, one receiver, defaults (32 of 64 in flight)`,
      capped,
      `${events} events queued, then drained`,
    ),
    drainRow(`${label}: deliveries/s, one receiver, 32 in flight`, pool32),
    drainRow(`${label}: deliveries/s, one receiver, 128 in flight`, pool128),
    {
      case: `${label}: commit → delivery p50 / p99`,
      value: `${lat.p50.toFixed(2)} / ${lat.p99.toFixed(2)}`,
      unit: "ms",
      note: "300 events after 1,000 untimed, one at a time, worker idle, worker and receiver in the bench's process",
    },
  ];
}

/** Deliveries per round in the graphile-worker comparison: long enough that start-up costs fade. */
const ROUND_DELIVERIES = 4000;

/**
 * Untimed rounds before the measured ones. After one, the `vitrina worker` process was still
 * compiling: its first measured round cost 318 µs of CPU a delivery against 220–278 µs in the five
 * after it (graphile-worker's own first measured round, 850 µs against 722–997, was within its
 * spread). Every contender gets the same warm-up.
 */
const WARMUP_ROUNDS = 2;

/**
 * Measured rounds, each contender's median kept: rounds of one contender spread by up to a quarter on
 * this 2-core VM (the `vitrina worker`'s read 2,295–2,836/s in one run), so five, not three.
 */
const MEASURED_ROUNDS = 5;

/**
 * graphile-worker draining the same number of signed POSTs to the same receiver with 32 in flight,
 * and Vitrina's PostgreSQL worker the same way, each in its own process, in MEASURED_ROUNDS alternating
 * rounds after WARMUP_ROUNDS untimed rounds of each, as long as measured ones (so no contender pays
 * for the JIT); each keeps its median.
 */
async function graphileRows(receiver) {
  const kinds = ["graphile-fetch", "graphile-undici-request", "vitrina-postgres", "vitrina-cli-worker"];
  const pools = { "vitrina-postgres": { concurrency: 32, perSubscriptionConcurrency: 32 } };
  const drainers = {};
  const rounds = Object.fromEntries(kinds.map((kind) => [kind, []]));
  // Every contender here queues on PostgreSQL, so each round reports the server's share too.
  const meter = await postgresMeter(DATABASE_URL);
  try {
    for (const kind of kinds) drainers[kind] = await startServer("outbox-drainer.mjs", [kind], { DATABASE_URL });
    for (let round = 0; round < WARMUP_ROUNDS; round++)
      for (const kind of kinds) await timeDrain(drainers[kind], receiver, ROUND_DELIVERIES, pools[kind]);
    for (let round = 0; round < MEASURED_ROUNDS; round++) {
      for (const kind of kinds)
        rounds[kind].push(await timeDrain(drainers[kind], receiver, ROUND_DELIVERIES, pools[kind], meter));
    }
  } finally {
    await Promise.all(Object.values(drainers).map((drainer) => drainer.stop()));
    await meter.close();
  }
  const median = (xs) => [...xs].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(xs.length / 2)];
  const [viaFetch, viaRequest, vitrina, cliWorker] = kinds.map((kind) => median(rounds[kind]));
  // Every round's rate, so a run's spread is in its output (rounds of one contender differ by up to a
  // quarter on this machine).
  const spread = (kind) =>
    `rounds ${rounds[kind].map((r) => Math.round(r.perSecond).toLocaleString("en-US")).join(" / ")}`;
  const paired = (kind) => roundByRound(rounds[kind], rounds["graphile-fetch"]);
  return [
    drainRow(
      "graphile-worker (reference): deliveries/s, one receiver, 32 in flight",
      viaFetch,
      `task POSTs with fetch; same signed POSTs and receiver, ${ROUND_DELIVERIES} jobs queued first, one runner; median of ${MEASURED_ROUNDS} alternating rounds (${spread("graphile-fetch")})`,
    ),
    drainRow(
      "graphile-worker, task POSTs with undici request: deliveries/s, 32 in flight",
      viaRequest,
      `the same HTTP client as Vitrina's Node sender; ${spread("graphile-undici-request")}`,
    ),
    drainRow(
      "Vitrina PostgreSQL, same rounds: deliveries/s, 32 in flight",
      vitrina,
      `${(vitrina.perSecond / viaFetch.perSecond).toFixed(2)}× graphile-worker (fetch) (${paired("vitrina-postgres")}), ${(vitrina.perSecond / viaRequest.perSecond).toFixed(2)}× with undici request; ${spread("vitrina-postgres")}`,
    ),
    drainRow(
      "Vitrina as deployed: a `vitrina worker` process (bin, env, its defaults), same rounds",
      cliWorker,
      `${(cliWorker.perSecond / viaFetch.perSecond).toFixed(2)}× graphile-worker (fetch) (${paired("vitrina-cli-worker")}); its default concurrency (64, at most 32 to one subscription); CPU is the worker process's; ${spread("vitrina-cli-worker")}`,
    ),
  ];
}

export async function run() {
  const receiver = await startServer("receiver.mjs");
  try {
    // The memory warm-up is shorter than its drains, still over six times those 300 deliveries.
    const rows = await measure("memory", "vitrina-memory", memoryStorageForBench, receiver, {
      events: 5000,
      warmupEvents: 2000,
    });
    if (!(await postgresAnswers(DATABASE_URL)))
      return [...rows, { case: "PostgreSQL", value: "skipped", note: `no server at ${DATABASE_URL}` }];
    return [
      ...rows,
      ...(await measure("PostgreSQL", "vitrina-postgres", freshPostgresStorage, receiver, {
        events: 2000,
        warmupEvents: 2000,
      })),
      ...(await graphileRows(receiver)),
    ];
  } finally {
    await receiver.stop();
  }
}
