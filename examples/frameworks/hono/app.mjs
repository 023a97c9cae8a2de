// Hono on Node: `node examples/frameworks/hono/app.mjs`. The same app runs on Deno, Bun and
// workerd with their own `serve` (Vitrina's handler is a plain (Request) => Response).
import { Hono } from "hono";
import { toNodeListener } from "@vitrina/http-node";
import { createDemoVitrina, isMain, printTryIt } from "../demo-vitrina.mjs";

/** Your app with Vitrina under /vitrina. */
export function createHonoApp(vitrina) {
  const app = new Hono();
  app.get("/", (c) => c.text("my app"));
  // `mount` strips /vitrina before calling the handler; Vitrina (with basePath "/vitrina") serves
  // both the stripped and the full path, and prints its URLs with the prefix.
  app.mount("/vitrina", vitrina.handler);
  for (const path of vitrina.wellKnownPaths) app.get(path, (c) => vitrina.handler(c.req.raw));
  return app;
}

if (isMain(import.meta)) {
  const demo = await createDemoVitrina({ basePath: "/vitrina" });
  const { createServer } = await import("node:http");
  const port = Number(process.env.PORT ?? 3000);
  // Hono's own Node server is @hono/node-server; Vitrina's listener adapts any fetch handler too.
  const app = createHonoApp(demo.vitrina);
  createServer(toNodeListener(async (request) => app.fetch(request))).listen(port, "127.0.0.1", () =>
    printTryIt(`http://127.0.0.1:${port}/vitrina`, demo),
  );
}
