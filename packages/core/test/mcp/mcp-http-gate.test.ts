import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, TOKENS, type McpHarness } from "./support/mcp-harness.js";

let h: McpHarness;
beforeAll(async () => {
  h = await startMcpHarness();
});
afterAll(() => h.close());

const initialize = (protocolVersion: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});
const toolsCall = (name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("the /mcp HTTP gate", () => {
  it("answers 401 with the protected-resource discovery header (OAuth on) without a key or with a wrong one", async () => {
    const withOAuth = await startMcpHarness({}, { oauth: true });
    for (const authorization of ["", `Bearer vk_wrong`, `Basic ${btoa("a:b")}`]) {
      const res = await withOAuth.post(toolsCall("query_catalog"), { authorization });
      expect(res.status).toBe(401);
      const header = res.headers.get("www-authenticate") ?? "";
      expect(
        header.startsWith(
          `Bearer resource_metadata="${withOAuth.server.url}/.well-known/oauth-protected-resource/mcp"`,
        ),
      ).toBe(true);
      // RFC 6750 §3.1: `error="invalid_token"` only when a bearer token was actually presented.
      expect(header.includes('error="invalid_token"')).toBe(authorization.startsWith("Bearer "));
      expect(res.json.error).toMatchObject({ code: -32000, data: { code: "unauthorized" } });
    }
    await withOAuth.close();
  });

  it("the SDK client fails to connect without a key", async () => {
    await expect(h.connect(null)).rejects.toThrow();
    await expect(h.connect("vk_wrong")).rejects.toThrow();
  });

  it("answers 403 insufficient_scope when the key lacks the tool's scope, before anything runs", async () => {
    const before = h.messaging.sent.length;
    const res = await h.post(toolsCall("send_message", { conversation_id: h.conversation.id, text: "hola" }), {
      authorization: `Bearer ${TOKENS.readOnly}`,
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toMatch(
      /^Bearer error="insufficient_scope", scope="conversations:write"/,
    );
    expect(res.json).toMatchObject({ id: 7, error: { data: { code: "insufficient_scope" } } });
    expect(h.messaging.sent.length).toBe(before);

    const catalogOnly = { authorization: `Bearer ${TOKENS.catalogOnly}` };
    expect((await h.post(toolsCall("get_contact", { contact_id: h.contact.id }), catalogOnly)).status).toBe(403);
    expect(
      (await h.post(toolsCall("create_quote", { items: [] }), catalogOnly)).headers.get("www-authenticate"),
    ).toMatch(/scope="quotes:write"/);
    expect((await h.post(toolsCall("query_catalog"), catalogOnly)).status).toBe(200);
  });

  it("the SDK client sees the 403 as an error", async () => {
    const client = await h.connect(TOKENS.catalogOnly);
    await expect(client.callTool({ name: "list_conversations", arguments: {} })).rejects.toThrow(
      /403|insufficient_scope|conversations:read/,
    );
    await client.close();
  });

  it("answers GET and DELETE with 405 Allow: POST (stateless, no SSE stream, no session)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(h.mcpUrl, {
        method,
        headers: { accept: "text/event-stream", authorization: `Bearer ${TOKENS.full}` },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(((await res.json()) as any).error.data.code).toBe("method_not_allowed");
    }
  });

  it("refuses a browser Origin that is not allowed (403), accepts an allowed one and none", async () => {
    const bad = await h.post(toolsCall("query_catalog"), { origin: "http://evil.example" });
    expect(bad.status).toBe(403);
    expect(bad.json.error.data.code).toBe("forbidden");
    expect((await h.post(toolsCall("query_catalog"), { origin: "https://console.example.com" })).status).toBe(200);
    expect((await h.post(toolsCall("query_catalog"))).status).toBe(200);
  });

  it("answers the CORS preflight of an allowed origin only, and lets it read WWW-Authenticate", async () => {
    const preflight = (origin: string) =>
      fetch(h.mcpUrl, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization" },
      });
    const ok = await preflight("https://console.example.com");
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://console.example.com");
    expect(ok.headers.get("access-control-allow-headers")).toMatch(/authorization/);
    expect((await preflight("http://evil.example")).status).toBe(403);
    const unauthorized = await h.post(toolsCall("query_catalog"), {
      origin: "https://console.example.com",
      authorization: "",
    });
    expect(unauthorized.headers.get("access-control-expose-headers")).toMatch(/www-authenticate/);
    expect(unauthorized.headers.get("access-control-expose-headers")).toMatch(/x-request-id/);
    expect(unauthorized.headers.get("x-request-id")).toMatch(/./);
    expect(
      (await h.post(toolsCall("query_catalog"), { origin: "http://evil.example" })).headers.get(
        "access-control-allow-origin",
      ),
    ).toBeNull();
  });

  it("refuses JSON-RPC batches with 400 (removed in 2025-06-18)", async () => {
    const res = await h.post([toolsCall("query_catalog"), { ...toolsCall("check_stock", { sku: "DEP-101" }), id: 8 }]);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: -32600, message: expect.stringMatching(/batch/i) });
  });

  it("refuses an unsupported MCP-Protocol-Version with 400; absent or older accepted ones pass", async () => {
    for (const version of ["1999-01-01", "2025-11-25", "banana"]) {
      const res = await h.post(toolsCall("query_catalog"), { "mcp-protocol-version": version });
      expect(res.status).toBe(400);
      expect(res.json.error.message).toMatch(/2025-06-18/);
    }
    expect((await h.post(toolsCall("query_catalog"), { "mcp-protocol-version": "2025-06-18" })).status).toBe(200);
    expect((await h.post(toolsCall("query_catalog"), { "mcp-protocol-version": "2025-03-26" })).status).toBe(200);
  });

  it("negotiates: a newer or unknown client version gets 2025-06-18, an older supported one is echoed", async () => {
    expect((await h.post(initialize("2025-11-25"))).json.result).toMatchObject({
      protocolVersion: "2025-06-18",
      serverInfo: { name: "vitrina", version: "1.0.0" },
    });
    expect((await h.post(initialize("2030-01-01"))).json.result.protocolVersion).toBe("2025-06-18");
    expect((await h.post(initialize("2025-03-26"))).json.result.protocolVersion).toBe("2025-03-26");
  });

  it("answers JSON, never SSE, and malformed JSON with a parse error", async () => {
    const res = await h.post(toolsCall("query_catalog", { limit: 1 }));
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json.result.structuredContent.items).toHaveLength(1);
    const bad = await h.post("{not json");
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe(-32700);
  });

  it("refuses bodies over the limit with 413", async () => {
    const res = await h.post(toolsCall("query_catalog", { search: "x".repeat(1024 * 1024 + 10) }));
    expect(res.status).toBe(413);
  });
});
