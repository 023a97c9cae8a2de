import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, TOKENS, type McpHarness } from "./support/mcp-harness.js";

// What plain HTTP clients, browsers and hand-written JSON-RPC meet on /mcp, over real sockets
// (the harness serves through @vitrina/http-node's listener).
let h: McpHarness;
beforeAll(async () => {
  h = await startMcpHarness();
});
afterAll(() => h.close());

const toolsCall = (params: unknown) => ({ jsonrpc: "2.0", id: 9, method: "tools/call", params });

/** A POST with a chosen Host header, which fetch would not let us set. */
function postWithHost(url: string, host: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const req = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          host,
          origin,
          "content-type": "application/json",
          accept: "application/json",
          authorization: `Bearer ${TOKENS.full}`,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("browser origins (item 8)", () => {
  it("lets the server's own origin in by default, next to allowedOrigins, including the preflight", async () => {
    const own = new URL(h.server.url).origin;
    const res = await h.post(toolsCall({ name: "query_catalog", arguments: {} }), { origin: own });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(own);
    const preflight = await fetch(h.mcpUrl, {
      method: "OPTIONS",
      headers: { origin: own, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(
      (await h.post(toolsCall({ name: "query_catalog", arguments: {} }), { origin: "http://127.0.0.1:1" })).status,
    ).toBe(403);
  });

  it("does not take a DNS name in Host as the own origin (a DNS-rebinding page sends matching Host and Origin)", async () => {
    const port = new URL(h.server.url).port;
    expect(await postWithHost(h.mcpUrl, `attacker.example:${port}`, `http://attacker.example:${port}`)).toBe(403);
    expect(await postWithHost(h.mcpUrl, `localhost:${port}`, `http://localhost:${port}`)).toBe(200);
  });

  it("with publicBaseUrl, that origin is the own origin", async () => {
    const proxied = await startMcpHarness({ publicBaseUrl: "https://mcp.example.com/base", allowedOrigins: undefined });
    try {
      expect(
        (await proxied.post(toolsCall({ name: "query_catalog", arguments: {} }), { origin: "https://mcp.example.com" }))
          .status,
      ).toBe(200);
      expect(
        (
          await proxied.post(toolsCall({ name: "query_catalog", arguments: {} }), {
            origin: "https://console.example.com",
          })
        ).status,
      ).toBe(403);
    } finally {
      await proxied.close();
    }
  });
});

describe("JSON-RPC errors (item 10)", () => {
  it("a tools/call without a name, or with non-object arguments, is -32602 with a readable message and the request's id", async () => {
    for (const [params, field] of [
      [{ arguments: {} }, "params.name"],
      [{ name: "", arguments: {} }, "params.name"],
      [{ name: 42 }, "params.name"],
      [{ name: "query_catalog", arguments: [1, 2] }, "params.arguments"],
      [{ name: "query_catalog", arguments: "search=x" }, "params.arguments"],
      [undefined, "params"],
    ] as const) {
      const res = await h.post(toolsCall(params));
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        id: 9,
        error: { code: -32602, data: { code: "invalid_payload", reasons: [{ field }] } },
      });
      expect(res.json.error.message).toMatch(new RegExp(`^Invalid params: ${field.replace(".", "\\.")} `));
      expect(res.json.error.message).not.toMatch(/invalid_type|expected|\[|\{/);
    }
  });

  it("any request whose params don't fit its method is -32602 naming the field, never -32603 with a zod dump", async () => {
    for (const [method, params, field] of [
      ["initialize", undefined, "params"],
      ["initialize", { protocolVersion: "2025-06-18", clientInfo: { name: "x", version: "1" } }, "params.capabilities"],
      ["tools/list", { cursor: 5 }, "params.cursor"],
      ["ping", { _meta: 3 }, "params._meta"],
    ] as const) {
      const res = await h.post({ jsonrpc: "2.0", id: 11, method, ...(params !== undefined && { params }) });
      expect(res.status, method).toBe(200);
      expect(res.json, method).toMatchObject({
        id: 11,
        error: { code: -32602, data: { reasons: [expect.objectContaining({ field })] } },
      });
      expect(res.json.error.message).toMatch(new RegExp(`^Invalid params: ${field.replace(".", "\\.")}`));
      expect(res.json.error.message).not.toMatch(/\n|"code"/);
    }
  });

  it("a malformed envelope is -32600 Invalid Request (400), not a parse error", async () => {
    for (const body of [
      { jsonrpc: "2.0", id: 1 },
      { jsonrpc: "1.0", id: 1, method: "ping" },
      { id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 1, method: 7 },
      { hello: "world" },
    ]) {
      const res = await h.post(body);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, data: { code: "invalid_argument" } },
      });
      expect(res.json.error.message).toMatch(/^Invalid Request: /);
    }
  });

  it("an unknown tool is -32602 once, not prefixed twice, through the SDK client", async () => {
    const client = await h.connect();
    await expect(client.callTool({ name: "delete_everything", arguments: {} })).rejects.toThrow(
      /^MCP error -32602: Unknown tool: delete_everything$/,
    );
    await client.close();
    const raw = await h.post(toolsCall({ name: "delete_everything", arguments: {} }));
    expect(raw.json).toMatchObject({ id: 9, error: { code: -32602, message: "Unknown tool: delete_everything" } });
  });

  it("a body over the Node listener's limit is a JSON-RPC error (413) on /mcp, and stays the plain error elsewhere", async () => {
    const res = await h.post(toolsCall({ name: "query_catalog", arguments: { search: "x".repeat(1024 * 1024 + 10) } }));
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, data: { code: "payload_too_large" } },
    });
    // Elsewhere the route answers in its own format, naming its own (lower) limit.
    const other = await fetch(`${h.server.url}/functions/v1/lead-intake`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(1024 * 1024 + 10),
    });
    expect(other.status).toBe(413);
    expect(((await other.json()) as any).error).toMatchObject({
      code: "payload_too_large",
      message: expect.stringMatching(/65536/),
    });
  });

  it("with OAuth off, the 401 names no resource_metadata (there is none to fetch)", async () => {
    const res = await h.post(toolsCall({ name: "query_catalog" }), { authorization: "" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
    expect((await fetch(`${h.server.url}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
    const wrong = await h.post(toolsCall({ name: "query_catalog" }), { authorization: "Bearer nope" });
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer realm="mcp", error="invalid_token"/);
  });

  it("with OAuth on, the 401 names resource_metadata, and that document exists", async () => {
    const withOAuth = await startMcpHarness({}, { oauth: true });
    try {
      const res = await withOAuth.post(toolsCall({ name: "query_catalog" }), { authorization: "" });
      const url = /resource_metadata="([^"]+)"/.exec(res.headers.get("www-authenticate") ?? "")?.[1];
      expect(url).toBe(`${withOAuth.server.url}/.well-known/oauth-protected-resource/mcp`);
      expect((await fetch(url!)).status).toBe(200);
    } finally {
      await withOAuth.close();
    }
  });
});

describe("plain HTTP clients (item 12)", () => {
  const post = (accept: string | null) =>
    fetch(h.mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${TOKENS.full}`,
        ...(accept === null ? {} : { accept }),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "check_stock", arguments: { sku: "DEP-101" } },
      }),
    });

  it("answers Accept: application/json alone, */*, and no Accept at all, as JSON", async () => {
    for (const accept of [
      "application/json",
      "*/*",
      "application/*",
      null,
      "",
      "application/json, text/event-stream",
      "APPLICATION/JSON",
      "application/json; charset=utf-8",
      "application/json;q=0.1, text/html",
      "text/event-stream, */*;q=0.5",
      "application/json, */*;q=0",
      "application/*;q=0.5, application/xml;q=0",
    ]) {
      const res = await post(accept);
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(((await res.json()) as any).result.structuredContent).toMatchObject({ found: true, stock: 3 });
    }
  });

  it("refuses an Accept that excludes JSON with 406, as a JSON-RPC error, q=0 beside */* included (RFC 9110 §12.4.2)", async () => {
    for (const accept of [
      "text/html",
      "text/event-stream",
      "application/json;q=0, text/plain",
      // The most specific range that matches decides: these rule JSON out whatever */* says.
      "application/json;q=0, */*",
      "*/*, application/json; q=0",
      "application/*;q=0, */*",
      "application/json;q=0, application/*",
      "application/json;q=0.000, text/event-stream, */*",
      "*/*;q=0",
    ]) {
      const res = await post(accept);
      expect(res.status, accept).toBe(406);
      expect(((await res.json()) as any).error).toMatchObject({
        code: -32000,
        message: expect.stringMatching(/application\/json/),
      });
    }
  });

  it("the documented curl sequence works: initialize, then tools/list without a session", async () => {
    const headers = {
      "content-type": "application/json",
      accept: "application/json",
      authorization: `Bearer ${TOKENS.full}`,
    };
    const init = await fetch(h.mcpUrl, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "8" } },
      }),
    });
    expect(((await init.json()) as any).result.protocolVersion).toBe("2025-06-18");
    const list = await fetch(h.mcpUrl, {
      method: "POST",
      headers: { ...headers, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(((await list.json()) as any).result.tools.length).toBe(8);
  });
});
