import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ListedTool } from "./tool-listing-types.js";
import { VitrinaError } from "../errors.js";
import type { Logger } from "../ports/logger.js";
import { observeToolCall } from "./mcp-telemetry.js";
import type { Principal } from "../auth/authenticators.js";
import { MCP_SERVER_INFO } from "./protocol.js";
import { listedTool, runTool, type ToolDefinition } from "./tool-definition.js";
import { RequestMultiplexer } from "./request-multiplexer.js";

/** The tools, indexed by name, with their tools/list entries computed once at startup. */
export interface ToolCatalog {
  byName: ReadonlyMap<string, ToolDefinition>;
  listed: ListedTool[];
}

export function createToolCatalog(tools: ToolDefinition[]): ToolCatalog {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new VitrinaError("invalid_argument", `duplicate MCP tool name ${tool.name}`);
    byName.set(tool.name, tool);
  }
  return { byName, listed: tools.map(listedTool) };
}

/**
 * One JSON-schema validator for every server. Left out, the SDK's `Server` constructor builds a new
 * Ajv instance (with its formats). The server only uses it to check elicitation replies, which a
 * stateless server never requests, so it is built on first use and then shared.
 */
let sharedAjv: AjvJsonSchemaValidator | undefined;
const sharedValidator: jsonSchemaValidator = {
  getValidator: (schema) => (sharedAjv ??= new AjvJsonSchemaValidator()).getValidator(schema),
};

/** Who is calling, and the request's logger: what a tool call needs besides its arguments. */
export interface McpCallContext {
  principal: Principal;
  logger: Logger;
}

/**
 * The SDK server that answers every request of `/mcp`, built once, with the transport that carries
 * requests to it (see `RequestMultiplexer`). The low-level `Server` (not `McpServer`) on purpose:
 * `McpServer.registerTool` converts zod to JSON Schema, while here the listing is computed once.
 * Arguments are validated by `runTool` with our zod schemas, so errors read like every other
 * Vitrina validation error.
 */
export async function createMcpServer(catalog: ToolCatalog): Promise<RequestMultiplexer<McpCallContext>> {
  const server = new Server(
    { ...MCP_SERVER_INFO },
    { capabilities: { tools: { listChanged: false } }, jsonSchemaValidator: sharedValidator },
  );
  const transport = new RequestMultiplexer<McpCallContext>();
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: catalog.listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = catalog.byName.get(request.params.name);
    const inFlight = transport.inFlight(extra.requestId);
    const call = { tool: tool?.name ?? null, requestId: inFlight?.clientId, meta: request.params._meta };
    return observeToolCall(call, async () => {
      // The gate answers unknown tools (refuseInvalidMessage), and every request arrives through
      // the multiplexer; this only guards those invariants. Not an McpError: its message already
      // carries "MCP error -32602:", which clients would prefix again.
      if (tool === undefined)
        throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), { code: ErrorCode.InvalidParams });
      if (inFlight === undefined) throw new Error(`MCP request ${String(extra.requestId)} has no caller`);
      const { principal, logger } = inFlight.context;
      return runTool(tool, request.params.arguments, { principal, meta: request.params._meta }, logger);
    });
  });
  await server.connect(transport);
  return transport;
}
