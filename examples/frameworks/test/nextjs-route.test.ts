import { toNodeListener } from "@vitrina/http-node";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs example.
import { vitrinaRouteHandlers } from "../nextjs-route/route.mjs";
import { expectVitrinaServed, listen, quietDemo } from "./support.js";

let server: Awaited<ReturnType<typeof listen>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type RouteModule = Record<string, ((request: Request) => Promise<Response>) | undefined>;

/**
 * What Next.js does for `app/vitrina/[...path]/route.js`, reduced: requests under the folder go
 * to the exported function of their method, with the full URL (the prefix is not stripped);
 * anything else is not this route's. (Next itself is too heavy to install for a test.)
 */
function nextLikeServer(routeModule: RouteModule, folder: string) {
  return toNodeListener(async (request) => {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(`${folder}/`)) return new Response("not found", { status: 404 });
    const handle = routeModule[request.method];
    return handle === undefined ? new Response(null, { status: 405 }) : handle(request);
  });
}

describe("a Next.js-style (Request) => Response route handler (examples/frameworks/nextjs-route)", () => {
  it("serves leads, the catalog and MCP under /vitrina with the full path", async () => {
    const demo = await quietDemo({ basePath: "/vitrina" });
    server = await listen(nextLikeServer(vitrinaRouteHandlers(demo.vitrina), "/vitrina"));
    await expectVitrinaServed(`${server.url}/vitrina`, demo);
  });

  it("exports a function for every method Vitrina answers", () => {
    expect(Object.keys(vitrinaRouteHandlers({ handler: async () => new Response() })).sort()).toEqual([
      "DELETE",
      "GET",
      "OPTIONS",
      "PATCH",
      "POST",
      "PUT",
    ]);
  });
});
