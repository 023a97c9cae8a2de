// Faults under load on real PostgreSQL: three API server processes (one with its outbox worker)
// and a worker process take signed leads while every PostgreSQL connection they hold is terminated
// again and again (what a restart, a failover or an `idle_session_timeout` does to them), and one
// server is killed (SIGKILL) a third of the way through. Reports requests, 503s, other 5xx, and
// whether every acknowledged lead was stored and its `conversation.started` delivered to a webhook
// receiver exactly once.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node scripts/fault-run.mjs
//
// FAULT_LEADS (default 2000), FAULT_CONCURRENCY (16) and FAULT_EVERY_MS (750) tune it. It works in a
// schema of its own and drops it at the end. Run `pnpm build` first: it uses the built packages.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { createInterface } from "node:readline";
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

const env = { DATABASE_URL: tagged.toString(), VITRINA_DB_SCHEMA: schema, VITRINA_SECRET_KEY: secretBox };
// The schema and its tables, created once here (the processes then find them migrated).
const setup = await storageFromEnv({ env, logger: silentLogger });
const vitrina = createVitrina({
  storage: setup.storage,
  messaging: logMessagingTransport(silentLogger),
  secretBox,
  logger: silentLogger,
  webhooks: { allowInsecureLoopback: true },
});
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
await vitrina.close();

/** Starts one process in `role`; resolves once it printed its first line. */
function start(role) {
  const child = spawn(process.execPath, [new URL("./fault-run-process.mjs", import.meta.url).pathname], {
    env: { ...process.env, ...env, FAULT_ROLE: role },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const reports = [];
  const ready = new Promise((resolve, reject) => {
    lines.on("line", (line) => {
      const report = JSON.parse(line);
      if (report.ready) resolve(report.url);
      else reports.push(report);
    });
    child.once("exit", (code) => reject(new Error(`${role} exited early (${code})`)));
  });
  return { role, child, reports, ready };
}
const processes = [start("server+worker"), start("server"), start("server"), start("worker")];
// Never leave a child behind when this script fails.
process.on("exit", () => processes.forEach((p) => p.child.exitCode === null && p.child.kill("SIGKILL")));
const urls = await Promise.all(processes.map((p) => p.ready));
const servers = urls.filter((url) => url !== null);
let killed = false;

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
    if (!killed && i >= LEADS / 3) {
      killed = true;
      processes[2].child.kill("SIGKILL");
      servers.splice(servers.indexOf(urls[2]), 1);
    }
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
// Stop the survivors, collecting what they logged.
const survivors = processes.filter((p) => p !== processes[2]);
await Promise.all(
  survivors.map(async (p) => {
    const exited = new Promise((resolve) => p.child.once("exit", resolve));
    p.child.kill("SIGTERM");
    await exited;
  }),
);
const logged = survivors
  .flatMap((p) => p.reports)
  .reduce((sum, r) => ({ dropped: sum.dropped + r.dropped, errors: sum.errors + r.errors }), { dropped: 0, errors: 0 });
console.log(
  `fault run: ${LEADS} leads at ${CONCURRENCY} in flight over ${loadSeconds.toFixed(1)} s to 3 server processes (one killed ` +
    `at a third), plus 1 worker process; every PostgreSQL connection of theirs terminated every ${FAULT_EVERY_MS} ms`,
);
console.table({
  requests: LEADS,
  "answered 200": statuses.get(200) ?? 0,
  "answered 503": statuses.get(503) ?? 0,
  "other 5xx": fivexx,
  "network errors (the killed server's in-flight requests)": statuses.get("network") ?? 0,
  "backends terminated": terminated,
  "acknowledged leads stored": `${stored} of ${acknowledged.length}`,
  "their conversation.started delivered": `${delivered} of ${expected.length}`,
  "events received more than once": duplicates,
  "warn lines 'PostgreSQL dropped…' (survivors)": logged.dropped,
  "error lines (survivors)": logged.errors,
});

await q(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
await admin.end();
receiver.close();
const ok = stored === acknowledged.length && delivered === expected.length && fivexx === 0;
process.exit(ok ? 0 : 1);
