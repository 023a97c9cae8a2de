// Lead intake as users deploy it, in its own process. argv[2]:
//   "vitrina-postgres" / "vitrina-pglite": the demo server exactly as `pnpm start` builds it
//     (examples/server/src/demo.mjs: storage from the environment with its default pool, the demo
//     workspace, console, OAuth, MCP and health checks), served by `serveVitrina` with the outbox
//     worker in process, plus what a deployment adds: a pino logger at info writing to a file, the
//     WhatsApp Cloud transport sending every welcome to a fake Graph API (fake-graph.mjs, its own
//     process), and a subscription to `conversation.started` at a receiver that verifies every
//     signature (receiver.mjs, its own process).
//   "reference-postgres" / "reference-pglite": the hand-written reference doing the same durable
//     work against the same two peers (reference-deployed-intake.mjs), on a pg Pool of pg's default
//     size or on PGlite.
// Announces { url, connectorId, secret } (see ipc.mjs); "writes" answers what reached the peers:
// { sends, received, unverified }.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WEBHOOK_SECRET } from "../outbox-setup.mjs";
import { analyzeSchema } from "../lib.mjs";
import { startServer } from "../load/drive.mjs";
import { announce } from "./ipc.mjs";

const kind = process.argv[2];
const onPostgres = kind.endsWith("postgres");
const workDir = await mkdtemp(join(tmpdir(), "vitrina-bench-deployed-"));
const schema = `bench_deployed_${Date.now()}`;
const [graph, receiver] = await Promise.all([startServer("fake-graph.mjs"), startServer("receiver.mjs")]);
const PHONE_NUMBER_ID = "100000000000001";
/** A separate connection for ANALYZE between rounds; the server's own pool is left as configured. */
let sidePool = null;
const cleanups = [];

async function startVitrina() {
  const { default: pino } = await import("pino");
  const { createDemo } = await import("../../examples/server/src/demo.mjs");
  const { serveVitrina } = await import("@vitrina/http-node");
  const logFile = join(workDir, "vitrina.log");
  const logger = pino({ level: "info" }, pino.destination({ dest: logFile, sync: false }));
  const env = {
    ...(onPostgres ? { DATABASE_URL: process.env.DATABASE_URL, VITRINA_DB_SCHEMA: schema } : {}),
    // Unset in `pnpm bench` (the default pool); set to compare pool sizes on the same configuration.
    ...(process.env.VITRINA_DB_POOL_SIZE && { VITRINA_DB_POOL_SIZE: process.env.VITRINA_DB_POOL_SIZE }),
    VITRINA_DATA_DIR: join(workDir, "data"),
    VITRINA_SECRET_KEY: randomBytes(32).toString("base64"),
    WHATSAPP_ACCESS_TOKEN: "bench-access-token",
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_GRAPH_URL: graph.info.url,
    WHATSAPP_APP_SECRET: "bench-app-secret-0123456789abcdef",
    WHATSAPP_VERIFY_TOKEN: "bench-verify-token-0123456789",
  };
  const demo = await createDemo({ env, logger, credentialsPath: join(workDir, "credentials.json") });
  await demo.vitrina.webhooks.create(demo.workspace.id, {
    url: receiver.info.url,
    events: ["conversation.started"],
    secret: WEBHOOK_SECRET,
  });
  const served = { handler: demo.handler, outbox: demo.vitrina.outbox, logger: demo.vitrina.logger };
  const server = await serveVitrina(served, { port: 0, host: "127.0.0.1", handleSignals: false });
  cleanups.push(() => server.close());
  return {
    url: `${server.url}/functions/v1/lead-intake`,
    connectorId: demo.connector.id,
    secret: demo.connectorSecret,
  };
}

async function startReference() {
  const { migrate } = await import("@vitrina/adapter-postgres");
  const { startReferenceDeployedIntake } = await import("./reference-deployed-intake.mjs");
  let db;
  if (onPostgres) {
    const { default: pg } = await import("pg");
    db = new pg.Pool({ connectionString: process.env.DATABASE_URL }); // pg's default size, as the demo's
    cleanups.push(() => db.end());
  } else {
    const { PGlite } = await import("@electric-sql/pglite");
    db = new PGlite(join(workDir, "reference-pglite"));
    cleanups.push(() => db.close());
  }
  await migrate(db, { schema });
  const ids = { workspaceId: "bench-workspace", connectorId: "00000000-0000-4000-8000-000000000000" };
  const secret = "vtr_cs_bench_secret_0123456789abcdefghijklmnop";
  const run = (sql, values) => db.query(sql, values);
  await run(
    `INSERT INTO "${schema}".workspaces (id, name, vertical, currency, created_at) VALUES ($1, 'Bench', 'real_estate', 'CLP', now())`,
    [ids.workspaceId],
  );
  await run(
    `INSERT INTO "${schema}".connectors (id, workspace_id, name, system_id, sealed_secret, secret_version, created_at)
     VALUES ($1, $2, 'Bench', 'bench', 'unused', 1, now())`,
    [ids.connectorId, ids.workspaceId],
  );
  const server = await startReferenceDeployedIntake({
    db,
    schema,
    ...ids,
    secret,
    graphUrl: graph.info.url,
    receiverUrl: receiver.info.url,
    webhookSecret: WEBHOOK_SECRET,
    subscriptionId: "bench-subscription",
  });
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return {
    url: `http://127.0.0.1:${server.address().port}/functions/v1/lead-intake`,
    connectorId: ids.connectorId,
    secret,
  };
}

const info = kind.startsWith("vitrina") ? await startVitrina() : await startReference();
if (onPostgres) {
  const { default: pg } = await import("pg");
  sidePool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
}
const counted = (peer) => peer.ask("count", (m) => typeof m?.sends === "number" || typeof m?.received === "number");
announce(info, {
  analyze: sidePool && (() => analyzeSchema((sql, params) => sidePool.query(sql, params), schema)),
  writes: async () => ({ ...(await counted(graph)), ...(await counted(receiver)) }),
});
process.once("SIGTERM", async () => {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
  await sidePool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
  await sidePool?.end();
  await Promise.all([graph.stop(), receiver.stop()]);
  await rm(workDir, { recursive: true, force: true });
  process.exit(0);
});
