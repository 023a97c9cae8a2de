// Express 5: `node examples/frameworks/express/app.mjs`, then open the printed URLs.
import express from "express";
import { shutdownOnSignal, startWorker, toNodeListener } from "@vitrina/http-node";
import { createDemoVitrina, isMain, printTryIt } from "../demo-vitrina.mjs";

/** Your app with Vitrina under /vitrina. */
export function createExpressApp(vitrina) {
  const app = express();
  // Before any body parser: Vitrina verifies signatures over the raw bytes, and a parser in front
  // would leave it an empty stream (it answers 500 body_already_consumed if you forget).
  app.use("/vitrina", toNodeListener(vitrina.handler));
  // Vitrina's OAuth discovery documents live at the origin root (empty list when OAuth is off).
  if (vitrina.wellKnownPaths.length > 0) app.get(vitrina.wellKnownPaths, toNodeListener(vitrina.handler));
  app.use(express.json());
  app.post("/api/notes", (req, res) => res.status(201).json({ saved: req.body }));
  return app;
}

if (isMain(import.meta)) {
  const demo = await createDemoVitrina({ basePath: "/vitrina" });
  const port = Number(process.env.PORT ?? 3000);
  const server = createExpressApp(demo.vitrina).listen(port, "127.0.0.1", () =>
    printTryIt(`http://127.0.0.1:${port}/vitrina`, demo),
  );
  // Webhooks are delivered by the outbox worker: run it here, and shut both down in order on
  // SIGTERM/SIGINT (drain the server, stop the worker, close Vitrina, exit).
  const worker = startWorker(demo.vitrina, { handleSignals: false });
  shutdownOnSignal({ server, worker, vitrina: demo.vitrina });
}
