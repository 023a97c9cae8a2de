// Counts the statements (round trips) and commits lead intake sends to PostgreSQL per lead: a
// pg.Pool whose every query, on the pool or on a checked-out client, is counted by its first word.
import { createHmac } from "node:crypto";
import { WEBHOOK_SECRET } from "./outbox-setup.mjs";

/**
 * Wraps a pg.Pool so that every statement it runs is counted in `counts` by its first keyword, and
 * every commit in `commits`: a COMMIT, or a writing statement run outside BEGIN … COMMIT (its own
 * transaction, committed when it ends).
 */
export function countingPool(pool) {
  const counts = new Map();
  const commits = { count: 0 };
  const count = (client, text) => {
    const sql = String(typeof text === "string" ? text : text.text).trim();
    if (process.env.TRACE_SQL) console.log("  sql:", sql.replace(/\s+/g, " ").slice(0, 110));
    const word = sql.split(/\s+/)[0].toUpperCase();
    counts.set(word, (counts.get(word) ?? 0) + 1);
    if (word === "BEGIN") client.__inTransaction = true;
    else if (word === "COMMIT" || word === "ROLLBACK") {
      client.__inTransaction = false;
      if (word === "COMMIT") commits.count++;
    } else if (!client.__inTransaction && word !== "SELECT") commits.count++;
  };
  const originalConnect = pool.connect.bind(pool);
  const wrap = (client) => {
    if (client && !client.__counted) {
      const clientQuery = client.query.bind(client);
      client.query = (text, ...rest) => (count(client, text), clientQuery(text, ...rest));
      client.__counted = true;
    }
    return client;
  };
  // pg's own Pool#query checks a client out with a callback, so counting clients counts it too.
  pool.connect = (callback) =>
    callback
      ? originalConnect((error, client, release) => callback(error, wrap(client), release))
      : originalConnect().then(wrap);
  return {
    pool,
    counts,
    commits,
    reset: () => {
      counts.clear();
      commits.count = 0;
    },
  };
}

/** A signed lead request for `handler`, as a CRM sends it. */
export function signedLead({ url, connectorId, secret }, i, run = Date.now(), person = i) {
  const body = JSON.stringify({
    event: "lead.created",
    source_lead_id: `stmt-${run}-${i}`,
    contact: {
      phone_e164: `+569${String(20_000_000 + person).slice(-8)}`,
      name: "Bench Lead",
      email: `s${person}@example.cl`,
    },
    context: { source: "bench", campaign_id: "load" },
    qualification: { monthly_income: 1_500_000 },
    whatsapp_consent: { granted: true, timestamp: "2026-01-01T00:00:00Z", source: "bench", purpose: "sales" },
  });
  const timestamp = String(Date.now());
  return new Request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-vitrina-connector-id": connectorId,
      "x-vitrina-timestamp": timestamp,
      "x-vitrina-signature": createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex"),
    },
    body,
  });
}

/**
 * Statements and commits per lead through Vitrina on PostgreSQL (`databaseUrl`), in process: a
 * fresh schema, a subscription to `conversation.started` (so the event fans out), warm-up leads,
 * then `leads` signed leads with consent, each sent and answered by the log transport. Each
 * measured lead is a new person's, or with `known`, a second lead of a person a warm-up lead
 * already welcomed (so its first message is blocked by the one-welcome rule).
 */
export async function statementsPerLead(databaseUrl, { leads = 50, known = false } = {}) {
  const { default: pg } = await import("pg");
  const { migrate, postgresStorage } = await import("@vitrina/adapter-postgres");
  const { createVitrina, silentLogger } = await import("@vitrina/core");
  const { logMessagingTransport } = await import("@vitrina/core/demo");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const schema = `bench_stmt_${Date.now()}`;
  await migrate(pool, { schema });
  const counter = countingPool(pool);
  const vitrina = createVitrina({
    storage: postgresStorage(pool, { schema, closeDriver: false }),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 9).toString("base64"),
    webhooks: { allowInsecureLoopback: true, externalWorker: true },
    logger: silentLogger,
  });
  try {
    const workspace = await vitrina.workspaces.create({ name: "Bench", ownerUserId: "owner" });
    const { connector, secret } = await vitrina.connectors.create(
      { userId: "owner" },
      { workspaceId: workspace.id, name: "Bench", systemId: "bench" },
    );
    await vitrina.webhooks.create(workspace.id, {
      url: "http://127.0.0.1:9/hooks",
      events: ["conversation.started"],
      secret: WEBHOOK_SECRET,
    });
    const target = { url: "http://127.0.0.1/functions/v1/lead-intake", connectorId: connector.id, secret };
    const warmups = known ? leads : 5;
    for (let i = 0; i < warmups; i++) await vitrina.handler(signedLead(target, i));
    counter.reset();
    for (let i = warmups; i < warmups + leads; i++) {
      const response = await vitrina.handler(signedLead(target, i, undefined, known ? i - warmups : i));
      if (response.status !== 200) throw new Error(`lead refused: ${response.status} ${await response.text()}`);
    }
    const total = [...counter.counts.values()].reduce((a, b) => a + b, 0);
    return { statements: total / leads, commits: counter.commits.count / leads, byKind: counter.counts };
  } finally {
    await vitrina.close();
    await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
    await pool.end();
  }
}
