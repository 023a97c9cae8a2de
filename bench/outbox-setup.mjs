// What the webhook benches share between the bench process (latency rows) and the drainer
// processes (servers/outbox-drainer.mjs): storages, a Vitrina with one subscription, and a backlog.
import { randomUUID } from "node:crypto";
import { verifyWebhook } from "@vitrina/client";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { nodeWebhookOptions } from "@vitrina/http-node";
import { analyzeSchema, DATABASE_URL, vacuumSchema } from "./lib.mjs";

/**
 * The signing secret of every bench subscription, Vitrina's and graphile-worker's task alike: the
 * receivers verify each delivery with it (see signatureTally).
 */
export const WEBHOOK_SECRET = "bench_secret_0123456789abcdef";
/** The key the benches' Vitrinas seal secrets with, so a `vitrina worker` process can open them too. */
export const SECRET_KEY = Buffer.alloc(32, 3).toString("base64");

/**
 * What the benches' receivers (servers/receiver.mjs, the latency rows' in webhooks.bench.mjs) do
 * with each delivery: verify it as a real receiver would, with @vitrina/client's verifyWebhook and
 * WEBHOOK_SECRET, and count those that fail with the first reason, so a contender that sent unsigned
 * or wrongly signed POSTs is caught, not timed. `reset()` starts a new count.
 */
export function signatureTally() {
  let unverified = 0;
  let firstReason;
  return {
    check(payload, header) {
      try {
        verifyWebhook({ payload, header, secret: WEBHOOK_SECRET });
      } catch (error) {
        unverified++;
        firstReason ??= String(error?.message ?? error);
      }
    },
    reset() {
      unverified = 0;
      firstReason = undefined;
    },
    get unverified() {
      return unverified;
    },
    get firstReason() {
      return firstReason;
    },
  };
}

/** A PostgreSQL storage in a fresh schema on DATABASE_URL, with `analyze()` and `vacuum()`; `close()` drops the schema. */
export async function freshPostgresStorage() {
  const { default: pg } = await import("pg");
  const { migrate, postgresStorage } = await import("@vitrina/adapter-postgres");
  const schema = `bench_wh_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 16 });
  await migrate(pool, { schema });
  const storage = postgresStorage(pool, { schema, closeDriver: false });
  return {
    ...storage,
    schema,
    query: (sql, params) => pool.query(sql, params),
    analyze: () => analyzeSchema((sql, params) => pool.query(sql, params), schema),
    vacuum: () => vacuumSchema((sql, params) => pool.query(sql, params), schema),
    async close() {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

export async function memoryStorageForBench() {
  const { memoryStorage } = await import("@vitrina/adapter-memory");
  return memoryStorage();
}

/**
 * A Vitrina on `storage` with one subscription to `receiverUrl` for `quote.created`, set up as on
 * Node in production (`nodeWebhookOptions()`: DNS and connect-time SSRF checks, deliveries sent on
 * undici's request API, as serveVitrina and the CLI set it up) with `pool`'s concurrency options.
 * `emit()` commits one quote, so one event and its delivery.
 */
export async function vitrinaWithSubscription(storage, pool, receiverUrl) {
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: SECRET_KEY,
    logger: silentLogger,
    webhooks: { ...nodeWebhookOptions({ allowInsecureLoopback: true }), ...pool },
  });
  const workspace = await vitrina.workspaces.create({ name: "Bench", ownerUserId: "owner" });
  const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56900000001" });
  await vitrina.webhooks.create(workspace.id, {
    url: receiverUrl,
    events: ["quote.created"],
    secret: WEBHOOK_SECRET,
  });
  const emit = () =>
    vitrina.quotes.create({
      workspaceId: workspace.id,
      contactId: contact.id,
      items: [{ sku: "SKU-1", quantity: 2, unitPrice: 1990 }],
    });
  return { vitrina, emit };
}

/**
 * Quotes per transaction, and transactions at once, when queueing a backlog (queueBacklog): as many
 * at once as freshPostgresStorage's pool has connections, so the worker finds every one of them open
 * when the clock starts, and doesn't time their connection set-up.
 */
const QUOTES_PER_TRANSACTION = 100;
const TRANSACTIONS_AT_ONCE = 16;

/**
 * Queues a backlog of `total` quote.created events and their deliveries on `storage`: one through
 * `emit()` (quotes.create), then copies of its rows with fresh ids and times, the quote and its
 * event with the event's deliveries, written through the storage port as quotes.create writes them
 * (`quotes.insert`, then `events.appendAndFanOut`), QUOTES_PER_TRANSACTION to a transaction. The
 * worker drains the same rows either way; quotes.create's transaction per quote (six round trips,
 * with its reads of the workspace and contact) queued about 800 a second on PostgreSQL here, most of
 * this section's wall time, before any clock started.
 */
export async function queueBacklog(storage, total, emit) {
  const quote = await emit();
  const [event] = await storage.events.listByWorkspace(quote.workspaceId, { type: "quote.created" });
  const copy = async (tx) => {
    const now = new Date();
    const id = randomUUID();
    await tx.quotes.insert({ ...quote, id, createdAt: now.toISOString() });
    await tx.events.appendAndFanOut(
      {
        ...event,
        id: `evt_${randomUUID().replace(/-/g, "")}`,
        created: now.toISOString(),
        data: { ...event.data, quote_id: id },
      },
      { retryUntil: new Date(now.getTime() + 24 * 60 * 60 * 1000).toISOString() },
    );
  };
  let left = total - 1;
  await Promise.all(
    Array.from({ length: TRANSACTIONS_AT_ONCE }, async () => {
      while (left > 0) {
        const count = Math.min(left, QUOTES_PER_TRANSACTION);
        left -= count;
        await storage.transaction(async (tx) => {
          for (let i = 0; i < count; i++) await copy(tx);
        });
      }
    }),
  );
}
