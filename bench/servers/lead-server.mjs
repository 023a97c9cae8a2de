// A lead-intake server in its own process, so the load generator doesn't share its event loop.
// argv[2]: "fixed" (node:http answering a fixed 200 to anything: the cheapest server, to find the
// load generator's own ceiling), "bare" (node:http that only reads the body, verifies the HMAC and
// answers 200: the reference for lead intake), "reference-postgres" (the hand-written node:http + pg
// server of reference-postgres-intake.mjs), "vitrina-memory" or "vitrina-postgres" (DATABASE_URL), or
// "vitrina-stub-writes": the memory kind with a new person's two writes (registerNewPerson,
// recordOutcome) answered without writing, a diagnostic that shows what the rest of intake costs, or
// "vitrina-keep-writes": the same two writes answered alike, but with their arguments kept in an
// array, the least any store in the process's heap must do (no copy, no index, no lookup).
// Announces { url, connectorId, secret } when ready (see ipc.mjs).
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { analyzeSchema, countLeadWrites } from "../lib.mjs";
import { announce } from "./ipc.mjs";

const kind = process.argv[2];
const secret = "vtr_cs_bench_secret_0123456789abcdefghijklmnop";
const connectorId = "00000000-0000-4000-8000-000000000000";

async function startFixed() {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/plain", "content-length": "2" });
    res.end("ok");
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}/` };
}

/**
 * BENCH_BARE_PAD_US: µs of busy CPU the bare server adds to each request, to calibrate the memory
 * row's ratio in CPU terms (bench/README.md). Not set in `pnpm bench`.
 */
const barePadMicros = Number(process.env.BENCH_BARE_PAD_US ?? 0);

function spinFor(micros) {
  if (micros <= 0) return;
  const until = performance.now() + micros / 1000;
  while (performance.now() < until);
}

async function startBare() {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const timestamp = req.headers["x-vitrina-timestamp"];
      const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest();
      const given = Buffer.from(String(req.headers["x-vitrina-signature"]), "hex");
      const ok = given.length === expected.length && timingSafeEqual(given, expected);
      spinFor(barePadMicros);
      res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
      res.end(ok ? '{"accepted":true}' : '{"error":{}}');
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}/functions/v1/lead-intake`, connectorId, secret };
}

async function startVitrina(storage) {
  const { createVitrina, silentLogger } = await import("@vitrina/core");
  const { logMessagingTransport } = await import("@vitrina/core/demo");
  const { serve } = await import("@vitrina/http-node");
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 9).toString("base64"),
  });
  const workspace = await vitrina.workspaces.create({ name: "Bench", ownerUserId: "owner" });
  const created = await vitrina.connectors.create(
    { userId: "owner" },
    { workspaceId: workspace.id, name: "Bench", systemId: "bench" },
  );
  const server = await serve(vitrina.handler, { port: 0 });
  return { url: `${server.url}/functions/v1/lead-intake`, connectorId: created.connector.id, secret: created.secret };
}

/** The ANALYZE and write-count hooks of the PostgreSQL kinds (set by freshSchema). */
let analyze;
let writes;

/** A fresh schema on the local server, migrated, with the pool and a SIGTERM handler that drops it. */
async function freshSchema() {
  const { default: pg } = await import("pg");
  const { migrate } = await import("@vitrina/adapter-postgres");
  const schema = `bench_${Date.now()}`;
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 16 });
  await migrate(pool, { schema });
  analyze = () => analyzeSchema((sql, params) => pool.query(sql, params), schema);
  writes = () => countLeadWrites((sql) => pool.query(sql), schema);
  process.once("SIGTERM", async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    process.exit(0);
  });
  return { pool, schema };
}

async function startReferencePostgres() {
  const { startReferencePostgresIntake } = await import("./reference-postgres-intake.mjs");
  const { pool, schema } = await freshSchema();
  const workspaceId = "bench-workspace";
  await pool.query(
    `INSERT INTO "${schema}".workspaces (id, name, vertical, currency, created_at) VALUES ($1, 'Bench', 'real_estate', 'CLP', now())`,
    [workspaceId],
  );
  await pool.query(
    `INSERT INTO "${schema}".connectors (id, workspace_id, name, system_id, sealed_secret, secret_version, created_at)
     VALUES ($1, $2, 'Bench', 'bench', 'unused', 1, now())`,
    [connectorId, workspaceId],
  );
  const server = await startReferencePostgresIntake({ pool, schema, workspaceId, connectorId, secret });
  return { url: `http://127.0.0.1:${server.address().port}/functions/v1/lead-intake`, connectorId, secret };
}

/**
 * The memory storage with a new person's lead writes answered at once and nothing stored: the
 * registration reports success and the outcome reports a new thread with no deliveries.
 */
async function stubbedWrites() {
  const storage = (await import("@vitrina/adapter-memory")).memoryStorage();
  return {
    ...storage,
    leads: { ...storage.leads, registerNewPerson: async () => true },
    outbound: {
      ...storage.outbound,
      recordOutcome: async () => ({ recorded: true, conversationId: "stub", opened: true, deliveries: 0 }),
    },
  };
}

/**
 * stubbedWrites, but every record the two writes are handed is kept, as it was handed (nothing
 * copied or indexed): what holding a lead's records in this process's heap costs on its own, in
 * garbage collection and in the pages the growing heap touches.
 */
async function keptWrites() {
  const stubbed = await stubbedWrites();
  const kept = [];
  return {
    ...stubbed,
    leads: {
      ...stubbed.leads,
      registerNewPerson: async (...records) => {
        kept.push(records);
        return true;
      },
    },
    outbound: {
      ...stubbed.outbound,
      recordOutcome: async (...records) => {
        kept.push(records);
        return stubbed.outbound.recordOutcome(...records);
      },
    },
  };
}

let info;
if (kind === "fixed") info = await startFixed();
else if (kind === "bare") info = await startBare();
else if (kind === "vitrina-memory")
  info = await startVitrina((await import("@vitrina/adapter-memory")).memoryStorage());
else if (kind === "vitrina-stub-writes") info = await startVitrina(await stubbedWrites());
else if (kind === "vitrina-keep-writes") info = await startVitrina(await keptWrites());
else if (kind === "reference-postgres") info = await startReferencePostgres();
else if (kind === "vitrina-postgres") {
  const { postgresStorage } = await import("@vitrina/adapter-postgres");
  const { pool, schema } = await freshSchema();
  info = await startVitrina(postgresStorage(pool, { schema, closeDriver: false }));
} else throw new Error(`unknown server kind ${kind}`);
announce(info, { analyze, writes });
// Exit on SIGTERM through process.exit, so `--cpu-prof` (BENCH_SERVER_NODE_ARGS) writes its profile;
// the PostgreSQL kinds drop their schema first (freshSchema's handler).
if (process.listenerCount("SIGTERM") === 0) process.once("SIGTERM", () => process.exit(0));
