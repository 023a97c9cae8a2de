import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import type { JSONRPCMessage, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { jsonResponseTo } from "../http/json.js";
import { MCP_PATH } from "./mcp-options.js";
import { undocumented } from "../http/route-doc.js";
import type { Route } from "../http/router.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { MessagingTransport } from "../ports/messaging.js";
import type { Storage } from "../ports/storage.js";
import { rejectEveryone, type Principal } from "../auth/authenticators.js";
import { onlyReadsHeaders } from "../auth/principal.js";
import { catalogPriceLookup } from "./catalog-prices.js";
import { canonicalCapabilityTools, legacyCapabilityTools } from "./capability-tools.js";
import { conversationTools } from "./conversation-tools.js";
import { JSONRPC_SERVER_ERROR, jsonRpcErrorResponse } from "./jsonrpc-response.js";
import { originPolicy, preflightResponse, withCors } from "./mcp-cors.js";
import { DEFAULT_MCP_BODY_LIMIT, type CapabilitySource, type McpOptions } from "./mcp-options.js";
import { createMcpServer, createToolCatalog, type McpCallContext, type ToolCatalog } from "./mcp-server.js";
import type { RequestMultiplexer } from "./request-multiplexer.js";
import { checkRequestShape, type RequestShapeOptions } from "./mcp-request-checks.js";
import { createQuoteTool } from "./quote-tool.js";

export interface McpRouteDependencies {
  storage: Storage;
  messaging: MessagingTransport;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** The agent runtime and registry (`vitrina.capabilities`). */
  capabilities: CapabilitySource;
  options?: McpOptions;
  /** Where the 401 points clients for discovery; the OAuth server supplies it (its `publicUrl`). */
  resourceMetadataUrl?: (request: Request) => string;
}

function unsupportedMediaType(): Response {
  return jsonRpcErrorResponse(
    415,
    JSONRPC_SERVER_ERROR,
    "invalid_argument",
    "Unsupported Media Type: send Content-Type: application/json",
  );
}

function postOnly(method: string): Response {
  return jsonRpcErrorResponse(
    405,
    JSONRPC_SERVER_ERROR,
    "method_not_allowed",
    `${method} is not supported: this MCP server is stateless and answers POST only, without SSE`,
    { allow: "POST" },
  );
}

/** The 8 tools of the spec, plus the canonical capability names when asked for. */
export function mcpTools(deps: McpRouteDependencies): ToolCatalog {
  const options = deps.options ?? {};
  const { capabilities } = deps;
  const canonical = options.canonicalToolNames ?? "none";
  return createToolCatalog([
    ...legacyCapabilityTools(capabilities),
    ...conversationTools(deps),
    createQuoteTool({
      enabled: options.enableFinancialTools === true,
      storage: deps.storage,
      quotes: options.quotes,
      prices: options.prices ?? catalogPriceLookup(deps.storage),
    }),
    ...(canonical === "none" ? [] : canonicalCapabilityTools(capabilities, canonical)),
  ]);
}

/**
 * `POST /mcp`: MCP Streamable HTTP, stateless, JSON responses only (no SSE in this version).
 * GET and DELETE get 405 with `Allow: POST`; OPTIONS answers the CORS preflight of allowed origins.
 */
export function mcpRoutes(deps: McpRouteDependencies): Route[] {
  const options = deps.options ?? {};
  const catalog = mcpTools(deps);
  const authenticate = options.authenticate ?? rejectEveryone;
  const shape: RequestShapeOptions = {
    isAllowedOrigin: originPolicy(options.allowedOrigins, options.publicBaseUrl),
    // Without OAuth no metadata document is served, so the 401 names none.
    ...(deps.resourceMetadataUrl !== undefined && { resourceMetadataUrl: deps.resourceMetadataUrl }),
    catalog,
  };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MCP_BODY_LIMIT;

  // One SDK server for the route's life, built on first use, reached through its transport (see
  // RequestMultiplexer).
  let multiplexer: Promise<RequestMultiplexer<McpCallContext>> | undefined;

  /**
   * Hands a checked request to the server and answers with its JSON-RPC response. A notification
   * (or a response) is accepted with 202 and no body, as MCP's HTTP transport says, and goes no
   * further: a stateless server has no request of that client's to cancel or progress to report.
   */
  async function serveAuthenticated(
    request: Request,
    principal: Principal,
    body: unknown,
    logger: Logger,
  ): Promise<Response> {
    if (!isJsonContentType(request.headers.get("content-type"))) return unsupportedMediaType();
    const message = body as JSONRPCMessage;
    if (!("method" in message) || !("id" in message)) return new Response(null, { status: 202 });
    const server = await (multiplexer ??= createMcpServer(catalog));
    return jsonResponseTo(request, await server.request(message as JSONRPCRequest, { principal, logger }));
  }

  // JSON-RPC over one URL: MCP clients learn its methods and tools from tools/list, not OpenAPI.
  return undocumented<Route>(
    [
      {
        method: "POST",
        path: MCP_PATH,
        // A web Request and Response with their body streams cost more than the call itself (about
        // 140 µs of its 300 on the bench machine): the body is read with readBodyLimited and the
        // answer made with jsonResponseTo. The request reaches no code outside core (the origin policy
        // and the OAuth URLs are core's) while the authenticators are core's own too; with an
        // embedder's, the router hands this route a real web Request.
        readsBodyDirectly: onlyReadsHeaders(authenticate),
        async handler(request, _params, context) {
          const checked = await checkRequestShape(request, shape, authenticate, maxBodyBytes);
          // The request's logger, so a failing tool's log line carries the request id.
          const response =
            checked instanceof Response
              ? checked
              : await serveAuthenticated(request, checked.principal, checked.body, context.logger);
          return withCors(request, response, shape.isAllowedOrigin);
        },
      },
      {
        method: "OPTIONS",
        path: MCP_PATH,
        handler: async (request) => preflightResponse(request, shape.isAllowedOrigin),
      },
      // The SDK would hold a GET open as an SSE stream and end a session on DELETE; stateless and
      // JSON-only, we have neither (MCP transports: 405 when no SSE stream is offered).
      ...["GET", "DELETE"].map((method) => ({ method, path: MCP_PATH, handler: async () => postOnly(method) })),
    ],
    "the MCP endpoint: JSON-RPC (Streamable HTTP), described by the MCP specification and its tools/list",
  );
}
