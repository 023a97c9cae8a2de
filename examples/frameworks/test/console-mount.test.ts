import express from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import { vitrinaConsole } from "@vitrina/console";
import { toNodeListener } from "@vitrina/http-node";
import { vitrinaFastify } from "@vitrina/http-node/fastify";
import { afterEach, describe, expect, it } from "vitest";
import { listen, quietDemo } from "./support.js";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A console whose sign-in hook signs in the demo owner on POST and knows nobody on GET. */
async function consoleDemo(options: Record<string, unknown> = {}) {
  let workspaceId = "";
  const demo = await quietDemo({
    basePath: "/vitrina",
    console: vitrinaConsole({
      signIn: async (request: Request) =>
        request.method === "POST" ? { userId: "owner", workspaceId } : new Response("your sign-in page"),
    }),
    ...options,
  });
  workspaceId = demo.workspace.id;
  return demo;
}

type Vitrina = Awaited<ReturnType<typeof consoleDemo>>["vitrina"];

/** The app under test on a loopback port, with Vitrina mounted under /vitrina the framework's way. */
const mounts: Record<string, (vitrina: Vitrina) => Promise<string>> = {
  // Express's app.use and Hono's mount strip /vitrina from the URL Vitrina sees.
  async express(vitrina) {
    const app = express();
    app.use("/vitrina", toNodeListener(vitrina.handler));
    const server = await listen(app);
    close = server.close;
    return server.url;
  },
  async hono(vitrina) {
    const app = new Hono();
    app.mount("/vitrina", vitrina.handler);
    const server = await listen(toNodeListener(async (request) => app.fetch(request)));
    close = server.close;
    return server.url;
  },
  // Fastify's prefix keeps it.
  async fastify(vitrina) {
    const app = Fastify();
    await app.register(vitrinaFastify, { vitrina, prefix: "/vitrina" });
    close = () => app.close();
    return app.listen({ port: 0, host: "127.0.0.1" });
  },
};

describe.each(Object.keys(mounts))("the console mounted under /vitrina with %s", (framework) => {
  it("sends a visitor who opened a deep link back to that page after sign-in", async () => {
    const demo = await consoleDemo();
    const base = await mounts[framework]!(demo.vitrina);

    const deepLink = await fetch(`${base}/vitrina/console/webhooks?starting_after=x`, { redirect: "manual" });
    expect(deepLink.status).toBe(303);
    const signInUrl = new URL(deepLink.headers.get("location")!, base);
    expect(signInUrl.pathname).toBe("/vitrina/console/sign-in");
    expect(signInUrl.searchParams.get("return_to")).toBe("/vitrina/console/webhooks?starting_after=x");

    const signedIn = await fetch(signInUrl, {
      method: "POST",
      redirect: "manual",
      headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("location")).toBe("/vitrina/console/webhooks?starting_after=x");
    expect(signedIn.headers.get("set-cookie")).toContain("Path=/vitrina/console;");
  });
});

// nginx's default `proxy_pass` (and many platform routers) hand the app their own upstream Host:
// the browser's Origin is the public one, which `publicUrl` names.
describe("the console behind a proxy that rewrites Host, with publicUrl set (Express)", () => {
  it("accepts forms posted from the public origin and still refuses another site's", async () => {
    const demo = await consoleDemo({ publicUrl: "https://shop.example.com" });
    const base = await mounts.express!(demo.vitrina);
    /** A form post as a browser on `origin` sends it (the proxy passes its own Host). */
    const post = (path: string, origin: string, body: string, cookie?: string) =>
      fetch(`${base}/vitrina/console${path}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          origin,
          "sec-fetch-site": origin === "https://shop.example.com" ? "same-origin" : "cross-site",
          "content-type": "application/x-www-form-urlencoded",
          ...(cookie === undefined ? {} : { cookie }),
        },
        body,
      });

    const signedIn = await post("/sign-in", "https://shop.example.com", "");
    expect(signedIn.status).toBe(303);
    const setCookie = signedIn.headers.get("set-cookie")!;
    expect(setCookie).toContain("; Secure");
    const cookie = setCookie.split(";")[0]!;

    const page = await (await fetch(`${base}/vitrina/console/integrations`, { headers: { cookie } })).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
    const form = new URLSearchParams({ _csrf: csrf, name: "Web form", system: "web-form" }).toString();
    const created = await post("/integrations", "https://shop.example.com", form, cookie);
    expect(created.status).toBeLessThan(400);
    expect(await created.text()).toContain("https://shop.example.com/vitrina/functions/v1/lead-intake");

    const forged = await post("/integrations", "https://evil.example", form, cookie);
    expect(forged.status).toBe(403);
  });
});
