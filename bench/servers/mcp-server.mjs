// An MCP server in its own process, so the load generator doesn't share its event loop.
// argv[2]: "bare" (a plain @modelcontextprotocol/sdk McpServer with one trivial tool, stateless,
// JSON responses, on the same web-standard transport and the same http-node `serve`: the ceiling)
// or "vitrina" (createVitrina's /mcp: bearer auth, scope check, query_catalog through the capability
// runtime over the memory adapter seeded with the demo catalog).
// Prints one JSON line { url, token, tool, arguments } when ready.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { serve } from "@vitrina/http-node";

const kind = process.argv[2];
const token = "vk_bench_0123456789";

async function startBare() {
  const server = await serve(
    async (request) => {
      const mcp = new McpServer({ name: "bare", version: "1.0.0" });
      mcp.registerTool("ping", { description: "answers pong" }, async () => ({
        content: [{ type: "text", text: "pong" }],
      }));
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

async function startVitrina() {
  const { createVitrina, logMessagingTransport, seedDemoData, silentLogger, staticTokenAuthenticator } =
    await import("@vitrina/core");
  const { memoryStorage } = await import("@vitrina/adapter-memory");
  const workspaceId = "00000000-0000-4000-8000-00000000be0c";
  const vitrina = createVitrina({
    storage: memoryStorage(),
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 9).toString("base64"),
    mcp: {
      authenticate: staticTokenAuthenticator({
        [token]: { workspaceId, keyId: "key-bench", scopes: ["catalog:read"] },
      }),
    },
  });
  await vitrina.workspaces.create({ id: workspaceId, name: "Bench", ownerUserId: "owner" });
  await seedDemoData(vitrina, workspaceId);
  const server = await serve(vitrina.handler, { port: 0, handleSignals: false });
  return { url: `${server.url}/mcp`, token, tool: "query_catalog", arguments: { search: "mir", limit: 5 } };
}

const info = kind === "bare" ? await startBare() : kind === "vitrina" ? await startVitrina() : null;
if (info === null) throw new Error(`unknown server kind ${kind}`);
process.stdout.write(`${JSON.stringify(info)}\n`);
process.on("SIGTERM", () => process.exit(0));
