// "My Express app + Vitrina's worker" in one process, on PGlite in VITRINA_DATA_DIR, shut down
// with shutdownOnSignal. One app route is in flight when SIGTERM arrives: it answers only after
// the signal, and asks Vitrina something first, so the test sees whether the drain came before
// Vitrina closed.
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { secretKeyFromEnv, shutdownOnSignal, startWorker, storageFromEnv } from "@vitrina/http-node";
import { createExpressApp } from "../../express/app.mjs";

const configured = await storageFromEnv();
const vitrina = createVitrina({
  storage: configured.storage,
  messaging: logMessagingTransport(silentLogger),
  secretBox: await secretKeyFromEnv(configured.dataDir),
  basePath: "/vitrina",
});
const app = createExpressApp(vitrina);
app.get("/api/in-flight", (_req, res) => {
  process.once("SIGTERM", async () => {
    const answer = await vitrina.handler(new Request("http://127.0.0.1/vitrina/v1/capabilities"));
    res.json({ vitrinaStatus: answer.status });
  });
  console.log("in-flight request waiting for SIGTERM");
});
const server = app.listen(0, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
const worker = startWorker(vitrina, { handleSignals: false });
shutdownOnSignal({ server, worker, vitrina, onShutdown: () => console.log("worker stopped, closing Vitrina") });
