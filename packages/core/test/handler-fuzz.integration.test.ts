import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, SCOPES, silentLogger, type Storage } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { backends, openTestStorage } from "../../adapter-postgres/test/support.js";
import { hostileJson, hostileJsonValue, hostileString, percentEncode } from "./support/hostile-strings.js";

// Every route, fed untrusted input: whatever arrives, the answer is a 2xx–4xx with a body, never a
// 5xx (a 5xx here means a bug let bad input through to storage or code that doesn't expect it).
// Strings include U+0000 and lone surrogates, which only PostgreSQL refuses: so the same properties
// run on memory, PGlite and (with DATABASE_URL) a real server.
/** Every MCP tool name, and one that isn't. */
const toolName = () =>
  fc.constantFrom(
    "search_contacts",
    "get_contact",
    "get_conversation_history",
    "list_conversations",
    "send_message",
    "query_catalog",
    "check_stock",
    "create_quote",
    "nope",
  );
/** Tool arguments under the names the tools read, each with any hostile JSON value. */
const hostileToolArguments = () =>
  fc.dictionary(
    fc.constantFrom("query", "contact_id", "conversation_id", "limit", "status", "text", "search", "sku", "items"),
    hostileJsonValue(),
  );

const storages: Array<[string, () => Promise<Storage>]> = [
  ["memory", async () => memoryStorage()],
  ...backends.map((backend): [string, () => Promise<Storage>] => [
    backend,
    async () => (await openTestStorage(backend)).storage,
  ]),
];

describe.each(storages)("the whole handler with untrusted input on %s (property)", (_name, openStorage) => {
  let storage: Storage;
  let vitrina: ReturnType<typeof createVitrina>;
  let apiKey = "";
  beforeAll(async () => {
    storage = await openStorage();
    vitrina = createVitrina({
      storage,
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 5).toString("base64"),
      oauth: { authorize: async () => new Response("login", { status: 302, headers: { location: "/login" } }) },
    });
    // A real key with every scope, so fuzzed requests also get past authentication into validation.
    const workspace = await vitrina.workspaces.create({ name: "Fuzz", ownerUserId: "owner" });
    ({ secret: apiKey } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
      name: "fuzz",
      // Every scope but the admin API's, which this suite leaves to its own tests.
      scopes: SCOPES.filter((scope) => !scope.startsWith("admin:")),
    }));
  });
  afterAll(async () => {
    await storage?.close();
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
  const text = hostileString();
  const queryNames = [
    "limit",
    "starting_after",
    "client_id",
    "redirect_uri",
    "response_type",
    "code_challenge",
    "code_challenge_method",
    "state",
    "scope",
    "resource",
  ];
  // Bearer API_KEY stands for the real key, known only once beforeAll has run.
  const API_KEY = "API_KEY";

  const request = fc.record({
    path: fc.oneof(
      fc.constantFrom(...paths),
      fc.constantFrom(...paths).chain((p) => text.map((s) => `${p}/${percentEncode(s)}`)),
      // A hostile id in every path parameter position.
      text.map((s) => `/v1/webhooks/${percentEncode(s)}`),
      fc.tuple(text, text).map(([a, b]) => `/v1/webhooks/${percentEncode(a)}/deliveries/${percentEncode(b)}/resend`),
    ),
    query: fc.oneof(
      fc.constant(""),
      fc.dictionary(fc.constantFrom(...queryNames), text).map(
        (d) =>
          `?${Object.entries(d)
            .map(([k, v]) => `${k}=${percentEncode(v)}`)
            .join("&")}`,
      ),
    ),
    method: fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT", "OPTIONS"),
    contentType: fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain", ""),
    authorization: fc.oneof(
      fc.constant(""),
      text.map((s) => `Bearer ${s.replace(/[\r\n]/g, "")}`),
      fc.constant("Basic Zm9vOmJhcg=="),
      // Basic credentials are form-urlencoded inside: malformed escapes and %00 among them.
      fc
        .tuple(
          fc.oneof(text, fc.constantFrom("%zz", "%", "a%00b", "%E0%A4%A")),
          fc.oneof(text, fc.constantFrom("%zz", "%00")),
        )
        .map(([id, secret]) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`),
      { arbitrary: fc.constant(`Bearer ${API_KEY}`), weight: 4 },
    ),
    body: fc.oneof(
      fc.constant(""),
      hostileJson(),
      text,
      hostileJsonValue().map((v) => JSON.stringify(v)),
      fc.dictionary(text, text).map((d) =>
        Object.entries(d)
          .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`)
          .join("&"),
      ),
      // Near-valid bodies reach deeper: a subscription, a JSON-RPC call to a tool, a token request.
      fc
        .record({
          url: fc.oneof(fc.webUrl(), text),
          events: fc.array(fc.oneof(fc.constant("quote.created"), text)),
          secret: text,
          enabled: fc.boolean(),
        })
        .map((v) => JSON.stringify(v)),
      fc
        .record({
          name: toolName(),
          arguments: hostileToolArguments(),
        })
        .map((params) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params })),
      fc
        .record({
          grant_type: fc.constantFrom("authorization_code", "refresh_token"),
          client_id: text,
          code: text,
          token: text,
          refresh_token: text,
          code_verifier: text,
        })
        .map((d) =>
          Object.entries(d)
            .map(([k, v]) => `${k}=${percentEncode(v)}`)
            .join("&"),
        ),
    ),
    extraHeaders: fc.dictionary(
      fc.constantFrom(
        "origin",
        "mcp-protocol-version",
        "x-vitrina-timestamp",
        "x-vitrina-signature",
        "x-vitrina-connector-id",
        "if-none-match",
        "accept",
      ),
      text,
    ),
  });

  it("never answers 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers = new Headers();
        const wanted: Record<string, string> = { ...r.extraHeaders };
        if (r.contentType) wanted["content-type"] = r.contentType;
        if (r.authorization) wanted.authorization = r.authorization.replace(API_KEY, apiKey);
        for (const [name, value] of Object.entries(wanted)) {
          try {
            headers.set(name, value);
          } catch {
            // a value Headers itself refuses (U+0000, CR/LF, non-Latin-1) never reaches a server
          }
        }
        const hasBody = r.method !== "GET" && r.method !== "OPTIONS";
        const response = await vitrina.handler(
          new Request(`http://vitrina.test${r.path}${r.query}`, {
            method: r.method,
            headers,
            body: hasBody && r.body !== "" ? r.body : undefined,
          }),
        );
        const body = await response.text();
        expect(response.status, `${r.method} ${r.path}${r.query}: ${body}`).toBeLessThan(500);
      }),
      { numRuns: 400 },
    );
  });

  it("never answers 5xx to authenticated, well-formed calls with untrusted arguments (MCP tools, subscriptions)", async () => {
    const toolCall = fc
      .record({
        name: toolName(),
        arguments: fc.oneof(
          hostileToolArguments(),
          fc.record({ contact_id: text, conversation_id: text, text, status: text }, { requiredKeys: [] }),
          fc.record({ items: fc.array(fc.record({ sku: text, quantity: fc.oneof(fc.integer(), fc.double(), text) })) }),
          fc.record({ limit: fc.oneof(fc.integer({ min: -5, max: 500 }), fc.double()), search: text, query: text }),
        ),
      })
      .map((params) => ({ path: "/mcp", body: { jsonrpc: "2.0", id: 1, method: "tools/call", params } }));
    const subscription = fc
      .record({
        url: fc.oneof(fc.webUrl(), text, fc.constant("https://93.184.216.34/hook")),
        events: fc.array(fc.oneof(fc.constant("quote.created"), text)),
        secret: hostileString({ minLength: 0, maxLength: 300 }),
        enabled: fc.boolean(),
      })
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
