import Fastify from "fastify";
import { vitrinaFastify } from "@vitrina/http-node/fastify";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs example.
import { createFastifyApp } from "../fastify/app.mjs";
import { expectMcpOAuthFlow, expectVitrinaServed, oauthDemo, quietDemo } from "./support.js";

let app: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

// Without the plugin's own content-type parser, Fastify's JSON parser reads the lead first and
// Vitrina answers 500 body_already_consumed (and a re-serialised body would fail its signature).
describe("Fastify 5 (examples/frameworks/fastify, plugin @vitrina/http-node/fastify)", () => {
  it("serves leads with their raw bytes, the catalog and MCP under /vitrina; the app's JSON routes still parse", async () => {
    const demo = await quietDemo({ basePath: "/vitrina" });
    const fastify = await createFastifyApp(demo.vitrina);
    app = fastify;
    const url = await fastify.listen({ port: 0, host: "127.0.0.1" });
    await expectVitrinaServed(`${url}/vitrina`, demo);

    const note = await fetch(`${url}/api/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(note.status).toBe(201);
    expect(await note.json()).toEqual({ saved: { a: 1 } });
  });

  it("an MCP client discovers OAuth from the 401 (metadata at the origin root), registers, authorizes and lists tools", async () => {
    const demo = await oauthDemo();
    const fastify = await createFastifyApp(demo.vitrina);
    app = fastify;
    await expectMcpOAuthFlow(await fastify.listen({ port: 0, host: "127.0.0.1" }));
  });

  it("serves a prefix with characters URLs percent-encode (/café), and prints it encoded", async () => {
    const demo = await quietDemo({ basePath: "/café" });
    const fastify = Fastify();
    app = fastify;
    await fastify.register(vitrinaFastify, { vitrina: demo.vitrina, prefix: "/café" });
    const url = await fastify.listen({ port: 0, host: "127.0.0.1" });
    // fetch sends the path as /caf%C3%A9/…, as browsers and HTTP clients do.
    const catalog = await fetch(`${url}/café/v1/capabilities`);
    expect(catalog.status).toBe(200);
    expect(((await catalog.json()) as { mcpServer: { url: string } }).mcpServer.url).toBe("/caf%C3%A9/mcp");
    expect(demo.vitrina.basePath).toBe("/caf%C3%A9");
  });
});
