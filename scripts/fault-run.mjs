// Faults under load on real PostgreSQL: two API servers and two outbox workers (in this process,
// each with a pool of its own, as separate processes would have) take signed leads while every
// PostgreSQL connection they hold is terminated again and again (what a restart, a failover or an
// `idle_session_timeout` does to them). Reports requests, 503s, other 5xx, and whether every
// acknowledged lead was stored and its `conversation.started` delivered to a webhook receiver.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node scripts/fault-run.mjs
//
// FAULT_LEADS (default 2000), FAULT_CONCURRENCY (16) and FAULT_EVERY_MS (750) tune it. It works in a
// schema of its own and drops it at the end. Run `pnpm build` first: it uses the built packages.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import pg from "pg";
import { signLead } from "@vitrina/client";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { serve, serveVitrina, startWorker, storageFromEnv } from "@vitrina/http-node";

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) {
  console.error("fault-run: set DATABASE_URL to a PostgreSQL you may create and drop a schema in");
  process.exit(2);
}
const LEADS = Number(process.env.FAULT_LEADS ?? 2000);
const CONCURRENCY = Number(process.env.FAULT_CONCURRENCY ?? 16);
const FAULT_EVERY_MS = Number(process.env.FAULT_EVERY_MS ?? 750);
const tag = `vitrina-fault-${process.pid}`;
const schema = `fault_${process.pid}_${Date.now()}`;
const tagged = new URL(DATABASE_URL);
tagged.searchParams.set("application_name", tag);
const secretBox = randomBytes(32).toString("base64");

// Counts what operators would see, without printing every line.
const logged = { dropped: 0, errors: 0 };
const logger = {
  debug() {},
  info() {},
  warn(fields, message) {
    if (String(message ?? fields).startsWith("PostgreSQL dropped")) logged.dropped++;
  },
  error() {
    logged.errors++;
  },
};

const received = new Map();
const receiver = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const id = JSON.parse(body).id;
    received.set(id, (received.get(id) ?? 0) + 1);
    res.end("ok");
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/`;

async function instance(role) {
  const { storage } = await storageFromEnv({
    env: { DATABASE_URL: tagged.toString(), VITRINA_DB_SCHEMA: schema },
    logger,
  });
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox,
    logger,
    webhooks: { allowInsecureLoopback: true },
  });
  if (role === "worker") return { vitrina, worker: startWorker(vitrina, { handleSignals: false }) };
  const server =
    role === "server+worker"
      ? await serveVitrina(vitrina, { port: 0, handleSignals: false })
      : await serve(vitrina.handler, { port: 0, handleSignals: false });
  return { vitrina, server };
}

const instances = [await instance("server+worker"), await instance("server"), await instance("worker")];
const servers = instances.filter((i) => i.server).map((i) => i.server.url);
const { vitrina } = instances[0];
const workspace = await vitrina.workspaces.create({ name: "Fault run", ownerUserId: "owner" });
const { connector, secret } = await vitrina.connectors.create(
  { userId: "owner" },
  { workspaceId: workspace.id, name: "CRM", systemId: "crm" },
);
await vitrina.webhooks.create(workspace.id, {
  url: receiverUrl,
  events: ["conversation.started"],
  secret: `whsec_${randomBytes(24).toString("base64")}`,
});

const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
let terminated = 0;
let faulting = true;
const faults = (async () => {
  while (faulting) {
    await new Promise((resolve) => setTimeout(resolve, FAULT_EVERY_MS));
    const { rows } = await admin.query(
      "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1",
      [tag],
    );
    terminated += rows[0].n;
  }
})();

const statuses = new Map();
const acknowledged = [];
let next = 0;
const started = Date.now();
async function sender() {
  while (next < LEADS) {
    const i = next++;
    const body = JSON.stringify({
      event: "lead.created",
      source_lead_id: `fault-${i}`,
      contact: { phone_e164: `+5699${String(1_000_000 + i).padStart(7, "0")}`, name: "Ana" },
      whatsapp_consent: { granted: true, timestamp: new Date(Date.now() - 60_000).toISOString() },
    });
    const { headers } = signLead({ connectorId: connector.id, secret, body, timestamp: Date.now() });
    let status;
    try {
      const response = await fetch(`${servers[i % servers.length]}/functions/v1/lead-intake`, {
        method: "POST",
        headers,
        body,
      });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = "network";
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status === 200) acknowledged.push(`fault-${i}`);
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, sender));
const loadSeconds = (Date.now() - started) / 1000;
faulting = false;
await faults;

// Every acknowledged lead's conversation.started must reach the receiver: wait for the workers.
const q = (text, params) => admin.query(text, params);
const s = `"${schema}"`;
const events = async () =>
  (
    await q(
      `SELECT e.id FROM ${s}.events e JOIN ${s}.lead_events l ON l.contact_id = (e.data->>'contact_id')
       WHERE e.type = 'conversation.started' AND l.source_lead_id = ANY($1)`,
      [acknowledged],
    )
  ).rows.map((r) => r.id);
let expected = await events();
for (let waited = 0; waited < 120 && expected.some((id) => !received.has(id)); waited++) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  expected = await events();
}
const stored = (
  await q(`SELECT count(*)::int AS n FROM ${s}.lead_events WHERE source_lead_id = ANY($1)`, [acknowledged])
).rows[0].n;
const delivered = expected.filter((id) => received.has(id)).length;
const duplicates = [...received.values()].filter((n) => n > 1).length;

const fivexx = [...statuses]
  .filter(([k]) => typeof k === "number" && k >= 500 && k !== 503)
  .reduce((n, [, v]) => n + v, 0);
console.log(
  `fault run: ${LEADS} leads at ${CONCURRENCY} in flight over ${loadSeconds.toFixed(1)} s, every PostgreSQL connection of the 3 processes' pools terminated every ${FAULT_EVERY_MS} ms`,
);
console.table({
  requests: LEADS,
  "answered 200": statuses.get(200) ?? 0,
  "answered 503": statuses.get(503) ?? 0,
  "other 5xx": fivexx,
  "network errors": statuses.get("network") ?? 0,
  "backends terminated": terminated,
  "acknowledged leads stored": `${stored} of ${acknowledged.length}`,
  "their conversation.started delivered": `${delivered} of ${expected.length}`,
  "events received more than once": duplicates,
  "warn lines 'PostgreSQL dropped…'": logged.dropped,
  "error lines": logged.errors,
});

for (const i of instances) {
  if (i.server) await i.server.close();
  if (i.worker) await i.worker.stop();
  await i.vitrina.close();
}
await q(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
await admin.end();
receiver.close();
const ok = stored === acknowledged.length && delivered === expected.length && fivexx === 0;
process.exit(ok ? 0 : 1);
