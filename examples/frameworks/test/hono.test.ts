import { toNodeListener } from "@vitrina/http-node";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs example.
import { createHonoApp } from "../hono/app.mjs";
import { expectVitrinaServed, listen, quietDemo } from "./support.js";

let server: Awaited<ReturnType<typeof listen>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("Hono (examples/frameworks/hono)", () => {
  it("app.mount('/vitrina', vitrina.handler): leads, catalog and MCP through Hono, which strips the prefix", async () => {
    const demo = await quietDemo({ basePath: "/vitrina" });
    const app = createHonoApp(demo.vitrina);
    server = await listen(toNodeListener(async (request) => app.fetch(request)));
    await expectVitrinaServed(`${server.url}/vitrina`, demo);
    expect(await (await fetch(`${server.url}/`)).text()).toBe("my app");
  });

  it("the same app answers through app.fetch alone, as on Deno, Bun or workerd", async () => {
    const demo = await quietDemo({ basePath: "/vitrina" });
    const app = createHonoApp(demo.vitrina);
    const response = await app.fetch(new Request("http://shop.test/vitrina/v1/capabilities"));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { mcpServer: { url: string } }).mcpServer.url).toBe("/vitrina/mcp");
  });
});
