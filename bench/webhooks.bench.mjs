// Webhook deliveries/s from one outbox worker to a local 2xx receiver, and commit-to-delivery
// latency, on the BUILT packages (`pnpm build` first), with the memory adapter and, when a server
// answers at DATABASE_URL, PostgreSQL. The receiver is a node:http server in the same process (it
// shares the CPU with the worker: a conservative figure). Vitrina sends as `nodeWebhookOptions()` sets
// it up on Node; graphile-worker's task POSTs with `fetch`, as its task code usually would, and, in a
// second reference row, with undici's request API like Vitrina, to show what the HTTP client is worth.
// On PostgreSQL each drain's tables are ANALYZEd once its backlog is queued, the reference's too
// (analyzeSchema in lib.mjs says why).
import { createServer } from "node:http";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { nodeWebhookOptions } from "@vitrina/http-node";
import { graphileDeliveriesPerSecond } from "./graphile-reference.mjs";
import { analyzeSchema, percentile } from "./lib.mjs";

export const name = "webhooks: one outbox worker → local 2xx receiver (same process)";

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

async function setup(makeStorage, pool, onDelivery) {
  const receiver = await startReceiver(onDelivery);
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
    url: receiver.url,
    events: ["quote.created"],
    secret: "bench_secret_0123456789abcdef",
  });
  const emit = () =>
    vitrina.quotes.create({
      workspaceId: workspace.id,
      contactId: contact.id,
      items: [{ sku: "SKU-1", quantity: 2, unitPrice: 1990 }],
    });
  const close = async () => {
    await receiver.close();
    await vitrina.close();
  };
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

/** Emits `total` events with no worker running, then times one worker draining them. */
async function throughput(makeStorage, total, pool) {
  let delivered = 0;
  let done;
  const finished = new Promise((resolve) => (done = resolve));
  const { vitrina, close, emit, analyze } = await setup(makeStorage, pool, () => ++delivered === total && done());
  await queueConcurrently(total, emit);
  await analyze();
  const started = performance.now();
  const worker = vitrina.outbox.startWorker();
  await finished;
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  await close();
  return total / seconds;
}

/** One event at a time with a worker idling: time from the commit returning to the receiver's handler. */
async function latency(makeStorage, total) {
  let arrived = () => {};
  const { vitrina, close, emit } = await setup(makeStorage, {}, (_id, at) => arrived(at));
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
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function measure(label, makeStorage, events) {
  await throughput(makeStorage, 300, {}); // warm-up
  // One receiver: by default it gets half of the pool (the per-subscription cap).
  const capped = await throughput(makeStorage, events, {});
  const pool32 = await throughput(makeStorage, events, { concurrency: 32, perSubscriptionConcurrency: 32 });
  const pool128 = await throughput(makeStorage, events, { concurrency: 128, perSubscriptionConcurrency: 128 });
  const lat = await latency(makeStorage, 300);
  return [
    {
      case: `${label}: deliveries/s, one receiver, defaults (16 of 32 in flight)`,
      value: capped,
      unit: "deliveries/s",
      note: `${events} events queued, then drained`,
    },
    { case: `${label}: deliveries/s, one receiver, 32 in flight`, value: pool32, unit: "deliveries/s" },
    { case: `${label}: deliveries/s, one receiver, 128 in flight`, value: pool128, unit: "deliveries/s" },
    {
      case: `${label}: commit → delivery p50 / p99`,
      value: `${lat.p50.toFixed(2)} / ${lat.p99.toFixed(2)}`,
      unit: "ms",
      note: "300 events, one at a time, worker idle",
    },
  ];
}

/** Deliveries per round in the graphile-worker comparison: long enough that start-up costs fade. */
const ROUND_DELIVERIES = 4000;

/**
 * graphile-worker draining the same number of signed POSTs to the same receiver with 32 in flight,
 * and Vitrina's PostgreSQL worker the same way, in three alternating rounds after an untimed
 * warm-up round of each (so no contender pays the JIT's first pass); each keeps its median.
 */
async function graphileRows(makeStorage) {
  let count = 0;
  const receiver = await startReceiver(() => count++);
  const rounds = { fetch: [], request: [], vitrina: [] };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const graphile = async (client, total = ROUND_DELIVERIES) => {
    count = 0;
    return graphileDeliveriesPerSecond({
      connectionString: DATABASE_URL,
      url: receiver.url,
      total,
      concurrency: 32,
      received: () => count,
      client,
    });
  };
  const pool32 = { concurrency: 32, perSubscriptionConcurrency: 32 };
  try {
    await graphile("fetch", 500);
    await graphile("undici-request", 500);
    await throughput(makeStorage, 500, pool32);
    for (let round = 0; round < 3; round++) {
      rounds.fetch.push(await graphile("fetch"));
      rounds.request.push(await graphile("undici-request"));
      rounds.vitrina.push(await throughput(makeStorage, ROUND_DELIVERIES, pool32));
    }
  } finally {
    await receiver.close();
  }
  const [viaFetch, viaRequest, vitrina] = [median(rounds.fetch), median(rounds.request), median(rounds.vitrina)];
  return [
    {
      case: "graphile-worker (reference): deliveries/s, one receiver, 32 in flight",
      value: viaFetch,
      unit: "deliveries/s",
      note: `task POSTs with fetch; same signed POSTs and receiver, ${ROUND_DELIVERIES} jobs queued first, one runner; median of 3 alternating rounds`,
    },
    {
      case: "graphile-worker, task POSTs with undici request: deliveries/s, 32 in flight",
      value: viaRequest,
      unit: "deliveries/s",
      note: "the same HTTP client as Vitrina's Node sender",
    },
    {
      case: "Vitrina PostgreSQL, same rounds: deliveries/s, 32 in flight",
      value: vitrina,
      unit: "deliveries/s",
      note: `${(vitrina / viaFetch).toFixed(2)}× graphile-worker (fetch), ${(vitrina / viaRequest).toFixed(2)}× with undici request`,
    },
  ];
}

export async function run() {
  const rows = await measure("memory", async () => memoryStorage(), 5000);
  const postgres = await postgresFactory();
  if (postgres === null)
    return [...rows, { case: "PostgreSQL", value: "skipped", note: `no server at ${DATABASE_URL}` }];
  return [...rows, ...(await measure("PostgreSQL", postgres, 2000)), ...(await graphileRows(postgres))];
}
