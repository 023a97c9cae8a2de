// Fastify 5: `node examples/frameworks/fastify/app.mjs`.
import Fastify from "fastify";
import { toNodeListener } from "@vitrina/http-node";
import { vitrinaFastify } from "@vitrina/http-node/fastify";
import { createDemoVitrina, isMain, printTryIt } from "../demo-vitrina.mjs";

/** Your app with Vitrina under /vitrina. */
export async function createFastifyApp(vitrina) {
  const app = Fastify();
  // The plugin keeps the request body unparsed inside its prefix (signatures are over the raw
  // bytes); your own routes keep Fastify's JSON parser.
  await app.register(vitrinaFastify, { vitrina, prefix: "/vitrina" });
  // Vitrina's OAuth discovery documents live at the origin root, outside the prefix (empty list
  // when OAuth is off). GETs carry no body, so Fastify's parsers don't matter; hijack the reply
  // because Vitrina writes the response itself.
  const listener = toNodeListener(vitrina.handler);
  for (const path of vitrina.wellKnownPaths) {
    app.get(path, (request, reply) => {
      reply.hijack();
      listener(request.raw, reply.raw);
    });
  }
  app.post("/api/notes", async (request, reply) => reply.code(201).send({ saved: request.body }));
  return app;
}

if (isMain(import.meta)) {
  const demo = await createDemoVitrina({ basePath: "/vitrina" });
  const app = await createFastifyApp(demo.vitrina);
  const port = Number(process.env.PORT ?? 3000);
  await app.listen({ port, host: "127.0.0.1" });
  printTryIt(`http://127.0.0.1:${port}/vitrina`, demo);
}
