// The outbox's reference: graphile-worker (a well-kept PostgreSQL job queue) sending the same signed
// webhook POSTs to the same kind of receiver, one worker, the same concurrency. Its jobs are queued
// first, then one runner drains them; the figure is jobs completed per second. It runs in a drainer
// process of its own (servers/outbox-drainer.mjs), as Vitrina's worker does.
import { Logger, makeWorkerUtils, run } from "graphile-worker";
import { request } from "undici";
import { signatureHeader } from "@vitrina/core/webhooks";
import { analyzeSchema, DATABASE_URL } from "./lib.mjs";
import { WEBHOOK_SECRET } from "./outbox-setup.mjs";

const quiet = new Logger(() => () => {});

/**
 * Queues `total` delivery jobs (the body a Vitrina delivery of `quote.created` carries) in a fresh
 * schema on DATABASE_URL, and returns `start()`, which sets one graphile-worker runner with
 * `concurrency` draining them, and `finish()`, which stops it and drops the schema. `url` is the
 * receiver's; `client` is how the task POSTs: "fetch" (the global one) or "undici-request" (undici's
 * request API).
 */
export async function prepareGraphileDrain({ total, url, concurrency = 32, client = "fetch" }) {
  const connectionString = DATABASE_URL;
  const schema = `bench_gw_${Date.now()}`;
  const utils = await makeWorkerUtils({ connectionString, schema, logger: quiet });
  await utils.migrate();
  const body = JSON.stringify({
    id: "evt_0",
    type: "quote.created",
    created: new Date().toISOString(),
    data: { quote_id: "q", contact_id: "c", conversation_id: null, currency: "CLP", items: [], subtotal: 0 },
  });
  // Queued before the clock starts, so their cost isn't counted; in one statement through
  // graphile-worker's own add_job (what addJob calls), since one addJob per job took longer than the drain.
  await utils.withPgClient((pgClient) =>
    pgClient.query(
      `SELECT "${schema}".add_job('deliver', json_build_object('eventId', 'evt_' || i, 'body', $1::text))
       FROM generate_series(0, $2::int - 1) AS i`,
      [body, total],
    ),
  );
  // Statistics for the queued jobs, as Vitrina's outbox gets them (see analyzeSchema in lib.mjs).
  await utils.withPgClient((pgClient) => analyzeSchema((sql, params) => pgClient.query(sql, params), schema));
  const key = WEBHOOK_SECRET;
  let runner;
  return {
    async start() {
      runner = await run({
        connectionString,
        schema,
        concurrency,
        noHandleSignals: true,
        pollInterval: 1000,
        logger: quiet,
        taskList: {
          async deliver({ eventId, body: payload }) {
            const signature = await signatureHeader(key, Math.floor(Date.now() / 1000), payload);
            const headers = {
              "content-type": "application/json",
              "vitrina-event-id": eventId,
              "vitrina-signature": signature,
            };
            if (client === "undici-request") {
              const response = await request(url, { method: "POST", headers, body: payload });
              await response.body.arrayBuffer();
              if (response.statusCode < 200 || response.statusCode >= 300)
                throw new Error(`receiver answered ${response.statusCode}`);
              return;
            }
            const response = await fetch(url, { method: "POST", headers, body: payload });
            await response.arrayBuffer();
            if (!response.ok) throw new Error(`receiver answered ${response.status}`);
          },
        },
      });
    },
    async finish() {
      await runner.stop();
      await utils.withPgClient((pgClient) => pgClient.query(`DROP SCHEMA "${schema}" CASCADE`));
      await utils.release();
    },
  };
}
