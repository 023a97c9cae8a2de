// An MCP server in its own process, driven by the separate load generator (see ipc.mjs). argv[2]:
// - "bare-per-request": a plain @modelcontextprotocol/sdk McpServer with one trivial tool, a new
//   server and stateless transport per request (the SDK's documented stateless pattern), JSON responses;
// - "bare-session": the SDK's fastest legal mode: one McpServer and one stateful transport for the
//   whole run, initialized once here; every call carries its `Mcp-Session-Id`;
// - "vitrina": createVitrina's /mcp: bearer auth, scope check, query_catalog through the capability
//   runtime over the memory adapter seeded with the demo catalog;
// - "vitrina-rest": the same server's REST route for the same capability (catalog.search), GET;
// - "vitrina-a2a": the same server's A2A endpoint, SendMessage with one data part for catalog.search.
// Both bare servers run on the same web-standard transport and the same http-node `serve`.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { serve } from "@vitrina/http-node";
import { announce } from "./ipc.mjs";

const kind = process.argv[2];
const token = "vk_bench_0123456789";

function pingServer() {
  const mcp = new McpServer({ name: "bare", version: "1.0.0" });
  mcp.registerTool("ping", { description: "answers pong" }, async () => ({
    content: [{ type: "text", text: "pong" }],
  }));
  return mcp;
}

async function startBarePerRequest() {
  const server = await serve(
    async (request) => {
      const mcp = pingServer();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await mcp.connect(transport);
      try {
        return await transport.handleRequest(request);
      } finally {
        void mcp.close();
      }
    },
    { port: 0, handleSignals: false },
  );
  return { url: `${server.url}/mcp`, token, tool: "ping", arguments: {} };
}

async function startBareSession() {
  const mcp = pingServer();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    enableJsonResponse: true,
  });
  await mcp.connect(transport);
  const server = await serve((request) => transport.handleRequest(request), { port: 0, handleSignals: false });
  const url = `${server.url}/mcp`;
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const initialized = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    }),
  });
  const sessionId = initialized.headers.get("mcp-session-id");
  await initialized.text();
  await fetch(url, {
    method: "POST",
    headers: { ...headers, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  }).then((r) => r.text());
  return { url, token, tool: "ping", arguments: {}, sessionId };
}

/** Vitrina with the demo catalog; `/mcp`, `/v1/rest` and `/a2a` (both on) accept the bench's static token. */
async function startVitrina() {
  const { createVitrina, silentLogger } = await import("@vitrina/core");
  const { staticTokenAuthenticator } = await import("@vitrina/core/mcp");
  const { logMessagingTransport, seedDemoData } = await import("@vitrina/core/demo");
  const { memoryStorage } = await import("@vitrina/adapter-memory");
  const workspaceId = "00000000-0000-4000-8000-00000000be0c";
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 9).toString("base64"),
    logger: silentLogger,
    rest: { enabled: true },
    a2a: { enabled: true },
    authenticators: [
      staticTokenAuthenticator({ [token]: { workspaceId, keyId: "key-bench", scopes: ["catalog:read"] } }),
    ],
  });
  await vitrina.workspaces.create({ id: workspaceId, name: "Bench", ownerUserId: "owner" });
  await seedDemoData(vitrina, workspaceId);
  const server = await serve(vitrina.handler, { port: 0, handleSignals: false });
  return { url: `${server.url}/mcp`, token, tool: "query_catalog", arguments: { search: "mir", limit: 5 } };
}

/** The same server, driven on its REST route: `GET /v1/rest/catalog.search?search=mir&limit=5`. */
async function startVitrinaRest() {
  const info = await startVitrina();
  return { ...info, url: info.url.replace(/\/mcp$/, "/v1/rest/catalog.search?search=mir&limit=5") };
}

/** The same server, driven on its A2A endpoint: `POST /a2a` SendMessage `{ capability: "catalog.search", input }`. */
async function startVitrinaA2a() {
  const info = await startVitrina();
  return { ...info, url: info.url.replace(/\/mcp$/, "/a2a"), capability: "catalog.search" };
}

const starters = {
  "bare-per-request": startBarePerRequest,
  "bare-session": startBareSession,
  vitrina: startVitrina,
  "vitrina-rest": startVitrinaRest,
  "vitrina-a2a": startVitrinaA2a,
};
if (!(kind in starters)) throw new Error(`unknown server kind ${kind}`);
announce(await starters[kind]());
process.on("SIGTERM", () => process.exit(0));
