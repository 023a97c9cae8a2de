// What the webhook benches share between the bench process (latency rows) and the drainer
// processes (servers/outbox-drainer.mjs): storages, a Vitrina with one subscription, and a backlog.
import { verifyWebhook } from "@vitrina/client";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { nodeWebhookOptions } from "@vitrina/http-node";
import { analyzeSchema, DATABASE_URL } from "./lib.mjs";

/**
 * The signing secret of every bench subscription, Vitrina's and graphile-worker's task alike: the
 * receivers verify each delivery with it (see signatureTally).
 */
export const WEBHOOK_SECRET = "bench_secret_0123456789abcdef";

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

/** A PostgreSQL storage in a fresh schema on DATABASE_URL, with `analyze()`; `close()` drops the schema. */
export async function freshPostgresStorage() {
  const { default: pg } = await import("pg");
  const { migrate, postgresStorage } = await import("@vitrina/adapter-postgres");
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
    secretBox: Buffer.alloc(32, 3).toString("base64"),
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
 * Calls `emit` `total` times, 16 at a time: the backlog is queued before the clock starts, and
 * queued one by one it took most of this bench's wall time on PostgreSQL.
 */
export async function queueConcurrently(total, emit) {
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
