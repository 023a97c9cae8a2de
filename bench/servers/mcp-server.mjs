// An MCP server in its own process, so the load generator doesn't share its event loop.
// argv[2]: "bare" (a plain @modelcontextprotocol/sdk McpServer with one trivial tool, stateless,
// JSON responses, on the same web-standard transport and the same http-node `serve`: the ceiling)
// or "vitrina" (createVitrina's /mcp with auth, scope check and query_catalog over the runtime).
// Prints one JSON line { url, token, tool, arguments } when ready.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { serve } from "@vitrina/http-node";

const kind = process.argv[2];
const token = "vk_bench_0123456789";
const catalog = [
  { sku: "DEP-101", name: "Departamento 101", price: 98_000_000, currency: "CLP", stock: 3 },
  { sku: "DEP-202", name: "Departamento 202", price: 125_000_000, currency: "CLP", stock: 0 },
];

async function startBare() {
  const server = await serve(async (request) => {
    const mcp = new McpServer({ name: "bare", version: "1.0.0" });
    mcp.registerTool("ping", { description: "answers pong" }, async () => ({ content: [{ type: "text", text: "pong" }] }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await mcp.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      void mcp.close();
    }
  }, { port: 0, handleSignals: false });
  return { url: `${server.url}/mcp`, token, tool: "ping", arguments: {} };
}

async function startVitrina() {
  const { createVitrina, logMessagingTransport, silentLogger, staticTokenAuthenticator } = await import("@vitrina/core");
  const { memoryStorage } = await import("@vitrina/adapter-memory");
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 9).toString("base64"),
    mcp: {
      authenticate: staticTokenAuthenticator({ [token]: { workspaceId: "ws-bench", keyId: "key-bench", scopes: ["catalog:read"] } }),
      // Interim runtime until the capability registry lands: same contract, fixed catalog, and one
      // catalog.search-shaped descriptor for every capability (only query_catalog is called).
      capabilities: {
        descriptor: (name) => ({
          name, version: "1.0.0", summary: name, riskClass: "read", requiredScopes: ["catalog:read"], scopeMatch: "anyOf",
          inputSchema: { type: "object", properties: { search: { type: "string" }, limit: { type: "integer", minimum: 0, maximum: 100 } }, additionalProperties: false },
          outputSchema: { type: "array", items: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] } },
          idempotency: { required: false },
        }),
        async invoke(_name, input) {
          const term = (input.search ?? "").toLowerCase();
          const items = catalog.filter((p) => p.sku.toLowerCase().includes(term) || p.name.toLowerCase().includes(term));
          return { output: items.slice(0, input.limit ?? 20), provenance: { source: "service_native", observedAt: new Date().toISOString() } };
        },
      },
    },
  });
  const server = await serve(vitrina.handler, { port: 0, handleSignals: false });
  return { url: `${server.url}/mcp`, token, tool: "query_catalog", arguments: { search: "dep", limit: 5 } };
}

const info = kind === "bare" ? await startBare() : kind === "vitrina" ? await startVitrina() : null;
if (info === null) throw new Error(`unknown server kind ${kind}`);
process.stdout.write(`${JSON.stringify(info)}\n`);
process.on("SIGTERM", () => process.exit(0));
