// A WhatsApp webhook server in its own process, for bench/whatsapp-webhook.bench.mjs.
// argv[2]: "bare" (node:http that reads the body, verifies X-Hub-Signature-256 with node:crypto and
// answers 200: the reference), or "vitrina-demo": the demo server as `pnpm start` runs it
// (examples/server's createDemo and serveVitrina: the outbox worker in this process, info logging,
// the demo's receive-only WhatsApp channel), on PostgreSQL in a fresh schema when argv[3] is a
// database URL, else on PGlite in a fresh data directory, with a subscription to
// conversation.started at BENCH_RECEIVER_URL. Announces { url, appSecret, phoneNumberId, storage }.
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeSchema } from "../lib.mjs";
import { WEBHOOK_SECRET } from "../outbox-setup.mjs";
import { announce } from "./ipc.mjs";

const [kind, databaseUrl] = process.argv.slice(2);
const appSecret = "bench-meta-app-secret-0123456789abcdef";
const phoneNumberId = "106540352242922";
const accepted = JSON.stringify({ received: true, recorded: true, skipped: 0 });

async function startBare() {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const expected = createHmac("sha256", appSecret).update(Buffer.concat(chunks)).digest();
      const header = String(req.headers["x-hub-signature-256"] ?? "");
      const given = Buffer.from(header.slice("sha256=".length), "hex");
      const ok = header.startsWith("sha256=") && given.length === expected.length && timingSafeEqual(given, expected);
      res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
      res.end(ok ? accepted : '{"error":{"code":"invalid_signature"}}');
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}/functions/v1/whatsapp-webhook`, appSecret, phoneNumberId };
}

let analyze;

async function startDemo() {
  const { createDemo } = await import("../../examples/server/src/demo.mjs");
  const { serveVitrina } = await import("@vitrina/http-node");
  const dataDir = await mkdtemp(join(tmpdir(), "vitrina-bench-wa-"));
  const schema = `bench_wa_${Date.now()}`;
  const env = {
    ...process.env,
    VITRINA_DATA_DIR: dataDir,
    VITRINA_DEMO_CREDENTIALS: join(dataDir, "demo-credentials.json"),
    VITRINA_SECRET_KEY: Buffer.alloc(32, 5).toString("base64"),
    WHATSAPP_APP_SECRET: appSecret,
    WHATSAPP_PHONE_NUMBER_ID: phoneNumberId,
    DATABASE_URL: databaseUrl ?? "",
    ...(databaseUrl && { VITRINA_DB_SCHEMA: schema }),
  };
  for (const name of ["WHATSAPP_ACCESS_TOKEN", "VITRINA_STORAGE", "VITRINA_LOG_LEVEL"]) delete env[name];
  const demo = await createDemo({ env });
  const server = await serveVitrina(
    { handler: demo.handler, outbox: demo.vitrina.outbox, logger: demo.vitrina.logger },
    { port: 0, handleSignals: false },
  );
  await demo.vitrina.webhooks.create(demo.workspace.id, {
    url: process.env.BENCH_RECEIVER_URL,
    events: ["conversation.started"],
    secret: WEBHOOK_SECRET,
  });
  if (databaseUrl) {
    const { default: pg } = await import("pg");
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    analyze = () => analyzeSchema((sql, params) => pool.query(sql, params), schema);
    process.once("SIGTERM", async () => {
      await server.close();
      await demo.vitrina.close();
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await pool.end();
      await rm(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  } else {
    process.once("SIGTERM", async () => {
      await server.close();
      await demo.vitrina.close();
      await rm(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  }
  return {
    url: `${server.url}${demo.vitrina.whatsapp.webhookPath}`,
    appSecret,
    phoneNumberId,
    storage: demo.storageName,
  };
}

const info = kind === "bare" ? await startBare() : kind === "vitrina-demo" ? await startDemo() : null;
if (info === null) throw new Error(`unknown server kind ${kind}`);
announce(info, { analyze });
if (process.listenerCount("SIGTERM") === 0) process.once("SIGTERM", () => process.exit(0));
