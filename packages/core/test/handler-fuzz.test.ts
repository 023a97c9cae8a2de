import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, logMessagingTransport, silentLogger } from "@vitrina/core";

// Every route, fed untrusted input: whatever arrives, the answer is a 2xx–4xx with a body, never a
// 5xx (a 5xx here means a bug let bad input through to storage or code that doesn't expect it).
const vitrina = createVitrina({
  storage: memoryStorage(),
  messaging: logMessagingTransport(silentLogger),
  secretBox: Buffer.alloc(32, 5).toString("base64"),
  oauth: { authorize: async () => new Response("login", { status: 302, headers: { location: "/login" } }) },
});

// A real key with every scope, so fuzzed requests also get past authentication into validation.
const workspace = await vitrina.workspaces.create({ name: "Fuzz", ownerUserId: "owner" });
const { secret: apiKey } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
  name: "fuzz",
  scopes: ["catalog:read", "customers:read", "customers:write", "conversations:read", "conversations:write", "inventory:read", "quotes:write", "webhooks:read", "webhooks:write"],
});

const paths = [
  "/functions/v1/lead-intake",
  "/v1/capabilities",
  "/v1/events/schemas",
  "/v1/webhooks",
  "/v1/webhooks/whs_1",
  "/v1/webhooks/whs_1/deliveries",
  "/v1/webhooks/whs_1/deliveries/d_1/resend",
  "/mcp",
  "/.well-known/oauth-protected-resource/mcp",
  "/.well-known/oauth-authorization-server",
  "/register",
  "/authorize",
  "/token",
  "/revoke",
];

const request = fc.record({
  path: fc.oneof(fc.constantFrom(...paths), fc.constantFrom(...paths).chain((p) => fc.string().map((s) => `${p}/${encodeURIComponent(s)}`))),
  query: fc.oneof(fc.constant(""), fc.dictionary(fc.constantFrom("limit", "starting_after", "client_id", "redirect_uri", "response_type", "code_challenge", "code_challenge_method", "state", "scope", "resource"), fc.string()).map((d) => `?${new URLSearchParams(d)}`)),
  method: fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT", "OPTIONS"),
  contentType: fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain", ""),
  authorization: fc.oneof(
    fc.constant(""),
    fc.string().map((s) => `Bearer ${s.replace(/[\r\n]/g, "")}`),
    fc.constant("Basic Zm9vOmJhcg=="),
    { arbitrary: fc.constant(`Bearer ${apiKey}`), weight: 4 },
  ),
  body: fc.oneof(
    fc.constant(""),
    fc.json(),
    fc.string(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.dictionary(fc.string(), fc.string()).map((d) => String(new URLSearchParams(d))),
    // Near-valid bodies reach deeper: a subscription, a JSON-RPC call to a tool.
    fc.record({ url: fc.oneof(fc.webUrl(), fc.string()), events: fc.array(fc.oneof(fc.constant("quote.created"), fc.string())), secret: fc.string(), enabled: fc.boolean() }).map((v) => JSON.stringify(v)),
    fc
      .record({
        name: fc.constantFrom("search_contacts", "get_contact", "get_conversation_history", "list_conversations", "send_message", "query_catalog", "check_stock", "create_quote", "nope"),
        arguments: fc.dictionary(fc.constantFrom("query", "contact_id", "conversation_id", "limit", "status", "text", "search", "sku", "items"), fc.jsonValue()),
      })
      .map((params) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params })),
  ),
  extraHeaders: fc.dictionary(fc.constantFrom("origin", "mcp-protocol-version", "x-vitrina-timestamp", "x-vitrina-signature", "x-vitrina-connector-id", "if-none-match", "accept"), fc.string().map((s) => s.replace(/[\r\n\0]/g, ""))),
});

describe("the whole handler with untrusted input (property)", () => {
  it("never answers 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers = new Headers();
        if (r.contentType) headers.set("content-type", r.contentType);
        if (r.authorization) headers.set("authorization", r.authorization);
        for (const [name, value] of Object.entries(r.extraHeaders)) {
          try {
            headers.set(name, value);
          } catch {
            // a value Headers itself refuses never reaches a server
          }
        }
        const hasBody = r.method !== "GET" && r.method !== "OPTIONS";
        const response = await vitrina.handler(
          new Request(`http://vitrina.test${r.path}${r.query}`, { method: r.method, headers, body: hasBody && r.body !== "" ? r.body : undefined }),
        );
        await response.arrayBuffer();
        expect(response.status, `${r.method} ${r.path}${r.query}`).toBeLessThan(500);
      }),
      { numRuns: 400 },
    );
  });

  it("never answers 5xx to authenticated, well-formed calls with untrusted arguments (MCP tools, subscriptions)", async () => {
    const toolCall = fc
      .record({
        name: fc.constantFrom("search_contacts", "get_contact", "get_conversation_history", "list_conversations", "send_message", "query_catalog", "check_stock", "create_quote", "nope"),
        arguments: fc.oneof(
          fc.dictionary(fc.constantFrom("query", "contact_id", "conversation_id", "limit", "status", "text", "search", "sku", "items"), fc.jsonValue()),
          fc.record({ items: fc.array(fc.record({ sku: fc.string(), quantity: fc.oneof(fc.integer(), fc.double(), fc.string()) })) }),
          fc.record({ limit: fc.oneof(fc.integer({ min: -5, max: 500 }), fc.double()), search: fc.string(), query: fc.string() }),
        ),
      })
      .map((params) => ({ path: "/mcp", body: { jsonrpc: "2.0", id: 1, method: "tools/call", params } }));
    const subscription = fc
      .record({ url: fc.oneof(fc.webUrl(), fc.string(), fc.constant("https://93.184.216.34/hook")), events: fc.array(fc.oneof(fc.constant("quote.created"), fc.string())), secret: fc.string({ minLength: 0, maxLength: 300 }), enabled: fc.boolean() })
      .map((body) => ({ path: "/v1/webhooks", body }));
    await fc.assert(
      fc.asyncProperty(fc.oneof(toolCall, subscription), async ({ path, body }) => {
        const response = await vitrina.handler(
          new Request(`http://vitrina.test${path}`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "mcp-protocol-version": "2025-06-18",
              authorization: `Bearer ${apiKey}`,
            },
            body: JSON.stringify(body),
          }),
        );
        const text = await response.text();
        expect(response.status, text).toBeLessThan(500);
        expect(text).not.toMatch(/internal error/);
      }),
      { numRuns: 300 },
    );
  });
});
