// Webhook deliveries/s from one outbox worker to a local 2xx receiver, and commit-to-delivery
// latency, on the BUILT packages (`pnpm build` first), with the memory adapter and, when a server
// answers at DATABASE_URL, PostgreSQL. For the rates, the receiver is a node:http server in its own
// process (servers/receiver.mjs), so it neither shares the worker's event loop nor hides its cost in
// the worker's: each row reports the worker's CPU per delivery (this process) and the receiver's, and
// the share of a core the receiver used, which shows it wasn't what limited the rate. The latency row
// keeps its receiver in this process: one event at a time leaves nothing to share, and its two
// timestamps must come from one clock. Vitrina sends as `nodeWebhookOptions()` sets it up on Node;
// graphile-worker's task POSTs with `fetch`, as its task code usually would, and, in a second
// reference row, with undici's request API like Vitrina, to show what the HTTP client is worth.
// On PostgreSQL each drain's tables are ANALYZEd once its backlog is queued, the reference's too
// (analyzeSchema in lib.mjs says why).
import { createServer } from "node:http";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { nodeWebhookOptions } from "@vitrina/http-node";
import { graphileDeliveries } from "./graphile-reference.mjs";
import { startServer } from "./load/drive.mjs";
import { analyzeSchema, percentile } from "./lib.mjs";

export const name = "webhooks: one outbox worker → local 2xx receiver (its own process)";

const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A fresh schema per storage on the local PostgreSQL, dropped on close; null when none answers. */
async function postgresFactory() {
  const { default: pg } = await import("pg");
  const probe = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 1000 });
  try {
    await probe.connect();
  } catch {
    return null;
  } finally {
    await probe.end().catch(() => {});
  }
  const { migrate, postgresStorage } = await import("@vitrina/adapter-postgres");
  return async () => {
    const schema = `bench_wh_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 16 });
    await migrate(pool, { schema });
    const storage = postgresStorage(pool, { schema, closeDriver: false });
    return {
      ...storage,
      analyze: () => analyzeSchema((sql, params) => pool.query(sql, params), schema),
      async close() {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      },
    };
  };
}

async function startReceiver(onDelivery) {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      onDelivery(req.headers["vitrina-event-id"], performance.now());
      res.statusCode = 204;
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, close: () => new Promise((r) => server.close(r)) };
}

async function setup(makeStorage, pool, receiverUrl) {
  const storage = await makeStorage();
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 3).toString("base64"),
    logger: silentLogger,
    // The production path on Node: nodeWebhookOptions() (DNS and connect-time SSRF checks, deliveries
    // sent on undici's request API), as serveVitrina and the CLI set it up.
    webhooks: { ...nodeWebhookOptions({ allowInsecureLoopback: true }), ...pool },
  });
  const workspace = await vitrina.workspaces.create({ name: "Bench", ownerUserId: "owner" });
  const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56900000001" });
  await vitrina.webhooks.create(workspace.id, {
    url: receiverUrl,
    events: ["quote.created"],
    secret: "bench_secret_0123456789abcdef",
  });
  const emit = () =>
    vitrina.quotes.create({
      workspaceId: workspace.id,
      contactId: contact.id,
      items: [{ sku: "SKU-1", quantity: 2, unitPrice: 1990 }],
    });
  const close = () => vitrina.close();
  // Statistics for the queued backlog (PostgreSQL only; see analyzeSchema in lib.mjs).
  const analyze = async () => storage.analyze?.();
  return { vitrina, close, emit, analyze };
}

/**
 * Calls `emit` `total` times, 16 at a time: the backlog is queued before the clock starts, and
 * queued one by one it took most of this bench's wall time on PostgreSQL.
 */
async function queueConcurrently(total, emit) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < total) {
        next++;
        await emit();
      }
    }),
  );
}

/**
 * Times one drain of `total` deliveries into `receiver` (a servers/receiver.mjs process): arms its
 * count, marks both processes' CPU, calls `start` (which sets the worker going) and resolves once the
 * last delivery arrived, with deliveries/s and each side's CPU per delivery in µs.
 */
export async function timeDrain(receiver, total, start) {
  await receiver.ask({ expect: total }, (m) => m === "armed");
  const reached = receiver.next((m) => m?.reached !== undefined);
  await receiver.markCpu();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await start();
  await reached;
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  return {
    perSecond: total / seconds,
    workerCpuUs: (user + system) / total,
    receiverCpuUs: (await receiver.readCpu()) / total,
  };
}

/** Emits `total` events with no worker running, then times one worker draining them. */
async function throughput(makeStorage, receiver, total, pool) {
  const { vitrina, close, emit, analyze } = await setup(makeStorage, pool, receiver.info.url);
  await queueConcurrently(total, emit);
  await analyze();
  let worker;
  const drained = await timeDrain(receiver, total, () => {
    worker = vitrina.outbox.startWorker();
  });
  await worker.stop();
  await close();
  return drained;
}

/** A drain's rate as a row, its CPU figures in the note. */
function drainRow(label, drained, note) {
  const receiverBusy = (drained.receiverCpuUs * drained.perSecond) / 1e4;
  const cpu = `CPU/delivery worker ${drained.workerCpuUs.toFixed(0)} µs, receiver ${drained.receiverCpuUs.toFixed(0)} µs (${receiverBusy.toFixed(0)} % of a core)`;
  return { case: label, value: drained.perSecond, unit: "deliveries/s", note: note ? `${note}; ${cpu}` : cpu };
}

/** One event at a time with a worker idling: time from the commit returning to the receiver's handler. */
async function latency(makeStorage, total) {
  let arrived = () => {};
  const receiver = await startReceiver((_id, at) => arrived(at));
  const { vitrina, close, emit } = await setup(makeStorage, {}, receiver.url);
  const worker = vitrina.outbox.startWorker();
  const samples = [];
  for (let i = 0; i < total; i++) {
    // One event in flight at a time, so the next arrival is this event's.
    const got = new Promise((resolve) => (arrived = resolve));
    await emit();
    const committed = performance.now();
    samples.push((await got) - committed);
  }
  await worker.stop();
  await close();
  await receiver.close();
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function measure(label, makeStorage, receiver, events) {
  // Warm-up as long as a measured drain: after 300 deliveries the first drain still paid for the
  // JIT (about twice the worker CPU per delivery of the drains after it).
  await throughput(makeStorage, receiver, events, {});
  // One receiver: by default it gets half of the pool (the per-subscription cap).
  const capped = await throughput(makeStorage, receiver, events, {});
  const pool32 = await throughput(makeStorage, receiver, events, { concurrency: 32, perSubscriptionConcurrency: 32 });
  const pool128 = await throughput(makeStorage, receiver, events, {
    concurrency: 128,
    perSubscriptionConcurrency: 128,
  });
  const lat = await latency(makeStorage, 300);
  return [
    drainRow(
      `${label}: deliveries/s, one receiver, defaults (16 of 32 in flight)`,
      capped,
      `${events} events queued, then drained`,
    ),
    drainRow(`${label}: deliveries/s, one receiver, 32 in flight`, pool32),
    drainRow(`${label}: deliveries/s, one receiver, 128 in flight`, pool128),
    {
      case: `${label}: commit → delivery p50 / p99`,
      value: `${lat.p50.toFixed(2)} / ${lat.p99.toFixed(2)}`,
      unit: "ms",
      note: "300 events, one at a time, worker idle, receiver in this process",
    },
  ];
}

/** Deliveries per round in the graphile-worker comparison: long enough that start-up costs fade. */
const ROUND_DELIVERIES = 4000;

/**
 * graphile-worker draining the same number of signed POSTs to the same receiver with 32 in flight,
 * and Vitrina's PostgreSQL worker the same way, in three alternating rounds after an untimed
 * warm-up round of each, as long as a measured one (so no contender pays the JIT's first pass);
 * each keeps its median.
 */
async function graphileRows(makeStorage, receiver) {
  const rounds = { fetch: [], request: [], vitrina: [] };
  const median = (xs) => [...xs].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(xs.length / 2)];
  const graphile = (client, total = ROUND_DELIVERIES) =>
    graphileDeliveries({
      connectionString: DATABASE_URL,
      url: receiver.info.url,
      total,
      concurrency: 32,
      client,
      timeDrain: (start) => timeDrain(receiver, total, start),
    });
  const pool32 = { concurrency: 32, perSubscriptionConcurrency: 32 };
  // Warm-up rounds as long as the measured ones: after a 500-delivery warm-up, Vitrina's first
  // round still paid for the JIT (2,077/s at 417 µs of worker CPU per delivery, then 3,000-4,000/s
  // at about 200 µs).
  await graphile("fetch");
  await graphile("undici-request");
  await throughput(makeStorage, receiver, ROUND_DELIVERIES, pool32);
  for (let round = 0; round < 3; round++) {
    rounds.fetch.push(await graphile("fetch"));
    rounds.request.push(await graphile("undici-request"));
    rounds.vitrina.push(await throughput(makeStorage, receiver, ROUND_DELIVERIES, pool32));
  }
  const [viaFetch, viaRequest, vitrina] = [median(rounds.fetch), median(rounds.request), median(rounds.vitrina)];
  // Every round's rate, so a run's spread is in its output (rounds of one contender differ by up to a
  // quarter on this machine).
  const spread = (xs) => `rounds ${xs.map((r) => Math.round(r.perSecond).toLocaleString("en-US")).join(" / ")}`;
  return [
    drainRow(
      "graphile-worker (reference): deliveries/s, one receiver, 32 in flight",
      viaFetch,
      `task POSTs with fetch; same signed POSTs and receiver, ${ROUND_DELIVERIES} jobs queued first, one runner; median of 3 alternating rounds (${spread(rounds.fetch)})`,
    ),
    drainRow(
      "graphile-worker, task POSTs with undici request: deliveries/s, 32 in flight",
      viaRequest,
      `the same HTTP client as Vitrina's Node sender; ${spread(rounds.request)}`,
    ),
    drainRow(
      "Vitrina PostgreSQL, same rounds: deliveries/s, 32 in flight",
      vitrina,
      `${(vitrina.perSecond / viaFetch.perSecond).toFixed(2)}× graphile-worker (fetch), ${(vitrina.perSecond / viaRequest.perSecond).toFixed(2)}× with undici request; ${spread(rounds.vitrina)}`,
    ),
  ];
}

export async function run() {
  const receiver = await startServer("receiver.mjs");
  try {
    const rows = await measure("memory", async () => memoryStorage(), receiver, 5000);
    const postgres = await postgresFactory();
    if (postgres === null)
      return [...rows, { case: "PostgreSQL", value: "skipped", note: `no server at ${DATABASE_URL}` }];
    return [
      ...rows,
      ...(await measure("PostgreSQL", postgres, receiver, 2000)),
      ...(await graphileRows(postgres, receiver)),
    ];
  } finally {
    await receiver.stop();
  }
}
