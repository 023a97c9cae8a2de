// One process of scripts/fault-run.mjs: an API server, or an outbox worker, on the schema and key
// the parent gives in the environment (FAULT_ROLE = "server+worker" | "server" | "worker").
// Prints one JSON line with its URL once ready, and its log counts when it stops on SIGTERM.
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { serve, serveVitrina, startWorker, storageFromEnv } from "@vitrina/http-node";

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
const { storage } = await storageFromEnv({ logger });
const vitrina = createVitrina({
  storage,
  messaging: logMessagingTransport(silentLogger),
  secretBox: process.env.VITRINA_SECRET_KEY,
  logger,
  webhooks: { allowInsecureLoopback: true },
});
const role = process.env.FAULT_ROLE;
let url = null;
let stop;
if (role === "worker") {
  const worker = startWorker(vitrina, { handleSignals: false });
  stop = () => worker.stop();
} else {
  const server =
    role === "server+worker"
      ? await serveVitrina(vitrina, { port: 0, handleSignals: false })
      : await serve(vitrina.handler, { port: 0, handleSignals: false });
  url = server.url;
  stop = () => server.close();
}
process.once("SIGTERM", async () => {
  await stop();
  await vitrina.close();
  console.log(JSON.stringify({ stopped: true, ...logged }));
  process.exit(0);
});
console.log(JSON.stringify({ ready: true, url }));
