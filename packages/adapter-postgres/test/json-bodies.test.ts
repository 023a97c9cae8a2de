import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness, TOKENS } from "../../core/test/mcp/support/mcp-harness.js";
import { startOAuthHarness } from "../../core/test/oauth/support/oauth-harness.js";
import { backends, openTestStorage } from "./support.js";

// /mcp and /register read JSON through the one body reader: bytes that are not UTF-8 are a parse
// error (they used to be decoded with U+FFFD and accepted), and text no storage can hold (U+0000,
// lone surrogates) is refused at the edge, in each protocol's own error shape, on every backend.
type OAuthHarness = Awaited<ReturnType<typeof startOAuthHarness>>;

const INVALID_UTF8 = [new Uint8Array([0xff]), new Uint8Array([0xc3, 0x28]), new Uint8Array([0xed, 0xa0, 0x80])];
const BAD_TEXT = { "U+0000": "\\u0000", "a lone high surrogate": "\\ud83d", "a lone low surrogate": "\\ude00" };

/** A JSON text with `BAD` replaced by a JSON escape (JSON.stringify would not write a raw one). */
const withEscape = (value: unknown, escape: string) => JSON.stringify(value).replace("BAD", escape);

function bytesAround(prefix: string, middle: Uint8Array, suffix: string): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  return new Uint8Array([...encoder.encode(prefix), ...middle, ...encoder.encode(suffix)]);
}

describe.each(["memory", ...backends] as const)("JSON bodies of /mcp and /register on %s", (backend) => {
  let mcp: McpHarness;
  let oauth: OAuthHarness;
  beforeAll(async () => {
    const storage = async () => (backend === "memory" ? undefined : (await openTestStorage(backend)).storage);
    mcp = await startMcpHarness({}, { storage: await storage() });
    oauth = await startOAuthHarness({ storage: await storage() });
  });
  afterAll(async () => {
    await mcp.close();
    await oauth.close();
  });

  const rawMcp = (body: Uint8Array<ArrayBuffer> | string) =>
    fetch(mcp.mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${TOKENS.full}`,
      },
      body,
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as any }));
  const rawRegister = (body: Uint8Array<ArrayBuffer> | string) =>
    fetch(`${oauth.base}/register`, { method: "POST", headers: { "content-type": "application/json" }, body }).then(
      async (r) => ({
        status: r.status,
        json: (await r.json()) as any,
      }),
    );
  const sendMessage = (text: string) => ({
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "send_message", arguments: { conversation_id: mcp.conversation.id, text } },
  });
  const registration = (over: Record<string, unknown>) => ({
    client_name: "Test client",
    redirect_uris: ["http://127.0.0.1:9999/callback"],
    token_endpoint_auth_method: "none",
    ...over,
  });

  it("/mcp answers bytes that are not UTF-8 with a JSON-RPC parse error, sending nothing", async () => {
    for (const bad of INVALID_UTF8) {
      const { status, json } = await rawMcp(
        bytesAround(JSON.stringify(sendMessage("hola ")).slice(0, -4), bad, '"}}}'),
      );
      expect(status).toBe(400);
      expect(json).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32700, data: { code: "malformed_json" } },
      });
    }
    expect(mcp.messaging.sent).toHaveLength(0);
  });

  it("/register answers bytes that are not UTF-8 with RFC 7591 invalid_client_metadata", async () => {
    for (const bad of INVALID_UTF8) {
      const { status, json } = await rawRegister(
        bytesAround(
          '{"client_name":"a',
          bad,
          '","redirect_uris":["http://127.0.0.1:9999/cb"],"token_endpoint_auth_method":"none"}',
        ),
      );
      expect(status).toBe(400);
      expect(json).toEqual({ error: "invalid_client_metadata", error_description: expect.stringMatching(/UTF-8/) });
    }
  });

  for (const [what, escape] of Object.entries(BAD_TEXT)) {
    it(`/mcp refuses ${what} in tool arguments with invalid params naming the field`, async () => {
      const { status, json } = await rawMcp(withEscape(sendMessage("hola BAD"), escape));
      // Valid JSON with a known id: the JSON-RPC error answers that request.
      expect(status).toBe(200);
      expect(json.id).toBe(3);
      expect(json.error).toMatchObject({
        code: -32602,
        data: {
          code: "invalid_payload",
          reasons: [{ field: "params.arguments.text", reason: expect.stringMatching(/U\+0000|surrogate/) }],
        },
      });
      expect(mcp.messaging.sent).toHaveLength(0);
    });

    it(`/register refuses ${what} in client metadata and stores no client`, async () => {
      const { status, json } = await rawRegister(withEscape(registration({ client_name: "Cliente BAD" }), escape));
      expect(status).toBe(400);
      expect(json).toEqual({
        error: "invalid_client_metadata",
        error_description: expect.stringMatching(/^client_name: contains (U\+0000|a lone UTF-16 surrogate)/),
      });
      const redirect = await rawRegister(
        withEscape(registration({ redirect_uris: ["http://127.0.0.1:9999/BAD"] }), escape),
      );
      expect(redirect.json.error).toBe("invalid_redirect_uri");
    });
  }

  it("/mcp refuses JSON nested deeper than 32 levels as an invalid request", async () => {
    const deep = "[".repeat(5000) + "]".repeat(5000);
    const { status, json } = await rawMcp(
      JSON.stringify(sendMessage("x")).replace('"text":"x"', `"text":"x","deep":${deep}`),
    );
    expect(status).toBe(200);
    expect(json.id).toBe(3);
    expect(json.error).toMatchObject({
      code: -32602,
      data: { reasons: [{ field: "params.arguments", reason: "nests deeper than 32 levels" }] },
    });
  });

  it("never answers 5xx to tool calls and registrations carrying hostile text (property)", async () => {
    const hostile = fc
      .array(fc.constantFrom("\u0000", "\ud800", "\udfff", "\ud83d\ude00", "a", "\u0001"), {
        minLength: 1,
        maxLength: 5,
      })
      .map((units) => units.join(""));
    const call = fc
      .record({
        text: hostile,
        name: fc.constantFrom("send_message", "search_contacts", "query_catalog"),
        key: fc.constantFrom("text", "query", "search"),
      })
      .map(
        ({ text, name, key }) =>
          () =>
            rawMcp(
              JSON.stringify({
                jsonrpc: "2.0",
                id: 1,
                method: "tools/call",
                params: { name, arguments: { conversation_id: mcp.conversation.id, [key]: text } },
              }),
            ),
      );
    const register = fc
      .record({ text: hostile, field: fc.constantFrom("client_name", "client_uri", "scope", "software_id") })
      .map(
        ({ text, field }) =>
          () =>
            rawRegister(JSON.stringify(registration({ [field]: text }))),
      );
    await fc.assert(
      fc.asyncProperty(fc.oneof(call, register), async (send) => {
        expect((await send()).status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });

  it("still serves valid text: astral characters, other control characters, paired surrogates", async () => {
    const { status, json } = await rawMcp(JSON.stringify(sendMessage("hola 😀 \u0001 \ud83d\ude00")));
    expect(status).toBe(200);
    expect(json.result.isError).toBeFalsy();
    expect((await oauth.register({ client_name: "Cliente 😀" })).status).toBe(201);
  });
});
