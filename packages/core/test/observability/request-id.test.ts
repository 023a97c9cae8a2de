import { describe, expect, it } from "vitest";
import { withRequestId } from "../../src/http/request-context.js";
import { memoryStorage } from "@vitrina/adapter-memory";
import { SCOPES, silentLogger } from "@vitrina/core";
import { capturePino, observedVitrina } from "./support.js";

function sequentialIds() {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
}

const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://vitrina.test${path}`, { headers });

describe("X-Request-Id", () => {
  it("answers the caller's id when well-formed, on success and on errors alike", async () => {
    const h = await observedVitrina({ health: true });
    for (const id of ["abc", "trace-1.2:3_X", "a".repeat(128)]) {
      const ok = await h.vitrina.handler(get("/healthz", { "x-request-id": id }));
      expect(ok.headers.get("x-request-id")).toBe(id);
      const missing = await h.vitrina.handler(get("/nowhere", { "x-request-id": id }));
      expect(missing.status).toBe(404);
      expect(missing.headers.get("x-request-id")).toBe(id);
      expect((await missing.json()).error).toMatchObject({ code: "not_found", request_id: id });
    }
  });

  it("replaces a malformed id with one from the injected generator", async () => {
    const h = await observedVitrina({ ids: sequentialIds() });
    for (const bad of ["", "a".repeat(129), "has space", 'quote"', "new\\nline", "ünïcode", "a,b"]) {
      const response = await h.vitrina.handler(get("/nowhere", { "x-request-id": bad }));
      const id = response.headers.get("x-request-id");
      expect(id).toMatch(/^00000000-0000-4000-8000-\d{12}$/);
      expect((await response.json()).error.request_id).toBe(id);
    }
    const without = await h.vitrina.handler(get("/nowhere"));
    expect(without.headers.get("x-request-id")).toMatch(/^00000000-0000-4000-8000-\d{12}$/);
  });

  it("is set on 405s, MCP answers and OAuth answers", async () => {
    const h = await observedVitrina({
      oauth: { authorize: async () => new Response("sign in first", { status: 401 }) },
      mcp: { allowedOrigins: [] },
    });
    const wrongMethod = await h.vitrina.handler(
      new Request("http://vitrina.test/functions/v1/lead-intake", {
        method: "GET",
        headers: { "x-request-id": "r-405" },
      }),
    );
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("x-request-id")).toBe("r-405");
    const mcp = await h.vitrina.handler(
      new Request("http://vitrina.test/mcp", {
        method: "POST",
        headers: {
          "x-request-id": "r-mcp",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get("x-request-id")).toBe("r-mcp");
    const metadata = await h.vitrina.handler(
      get("/.well-known/oauth-authorization-server", { "x-request-id": "r-oauth" }),
    );
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get("x-request-id")).toBe("r-oauth");
    const authorize = await h.vitrina.handler(get("/authorize?client_id=nobody", { "x-request-id": "r-authorize" }));
    expect(authorize.headers.get("x-request-id")).toBe("r-authorize");
  });

  it("sets the header even on a response whose headers are immutable (a redirect)", async () => {
    const handler = withRequestId(async () => Response.redirect("http://vitrina.test/elsewhere", 302), {
      ids: () => "generated",
      logger: silentLogger,
    });
    const response = await handler(get("/"));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("http://vitrina.test/elsewhere");
    expect(response.headers.get("x-request-id")).toBe("generated");
  });

  it("a thrown error past the router is still a JSON 500, logged at error with its cause and the request id", async () => {
    const { logger, lines } = capturePino();
    const handler = withRequestId(
      async () => {
        throw new TypeError("database exploded");
      },
      { ids: () => "req-500", logger },
    );
    const response = await handler(get("/"));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { code: "internal", message: "internal error", reasons: [], request_id: "req-500" },
    });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 50,
        requestId: "req-500",
        code: "internal",
        cause: expect.stringContaining("database exploded"),
      }),
    ]);
  });
});

describe("5xx on the webhooks API", () => {
  it("is logged at error with its cause and the request id, and answers a generic 500 with that id", async () => {
    const storage = memoryStorage();
    const broken = {
      ...storage,
      webhookSubscriptions: {
        ...storage.webhookSubscriptions,
        listByWorkspace: async () => Promise.reject(new Error("disk on fire at /var/lib/db")),
      },
    };
    const h = await observedVitrina({ storage: broken });
    const { secret } = await h.vitrina.apiKeys.issue({ userId: "owner" }, h.workspace.id, {
      name: "ops",
      scopes: [...SCOPES],
    });
    const response = await h.vitrina.handler(
      get("/v1/webhooks", { authorization: `Bearer ${secret}`, "x-request-id": "r-api-500" }),
    );
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: "internal", message: "internal error", reasons: [], request_id: "r-api-500" },
    });
    expect(text).not.toContain("disk on fire");
    expect(h.lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        requestId: "r-api-500",
        code: "internal",
        cause: expect.stringContaining("disk on fire"),
      }),
    );
    expect(h.text()).not.toContain(secret);
  });
});
