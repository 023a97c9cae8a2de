import { toNodeListener } from "@vitrina/http-node";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs example.
import { vitrinaRouteHandlers } from "../nextjs-route/route.mjs";
import { recordingLogger } from "../../../packages/http-node/test/support/recording-logger.js";
import { expectVitrinaServed, listen, quietDemo, sendSignedLead } from "./support.js";

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

  it("answers body_already_consumed with the fix, and logs it, when a wrapper read the body first", async () => {
    const { logger, entries } = recordingLogger();
    const demo = await quietDemo({ basePath: "/vitrina", logger });
    const routes = vitrinaRouteHandlers(demo.vitrina) as RouteModule;
    // A wrapper that awaits the body (to log it, say) and then hands the same Request on.
    const readsFirst: RouteModule = {
      ...routes,
      POST: async (request) => {
        await request.json();
        return routes.POST!(request);
      },
    };
    server = await listen(nextLikeServer(readsFirst, "/vitrina"));
    const response = await sendSignedLead(`${server.url}/vitrina`, demo);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string; request_id: string } };
    expect(body.error.code).toBe("body_already_consumed");
    expect(body.error.message).toMatch(/mount Vitrina before body parsers .*request\.json\(\)/);
    expect(body.error.request_id).toBe(response.headers.get("x-request-id"));
    expect(entries.filter((e) => e.level === "error")).toEqual([
      {
        level: "error",
        fields: expect.objectContaining({
          code: "body_already_consumed",
          method: "POST",
          path: "/functions/v1/lead-intake",
        }),
        message: body.error.message,
      },
    ]);
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
