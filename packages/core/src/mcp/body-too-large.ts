import { VitrinaError } from "../errors.js";
import { jsonResponse } from "../http/json.js";
import { JSONRPC_SERVER_ERROR, jsonRpcErrorResponse } from "./jsonrpc-response.js";
import { MCP_PATH } from "./mcp-options.js";

/** True when `url` (a full URL or a Node request target) addresses the MCP endpoint, whose refusals are JSON-RPC errors MCP clients parse. */
export function isMcpPath(url: string): boolean {
  return new URL(url, "http://localhost").pathname.replace(/\/$/, "") === MCP_PATH;
}

/**
 * The 413 a server binding sends for a body over its own limit, in the error format of the route
 * at that URL: a JSON-RPC error (`-32000`, `data.code: "payload_too_large"`) on `/mcp`, the
 * standard error body everywhere else. Bindings that refuse a body before the handler runs (a
 * declared Content-Length too large) use it so the client reads the same shape the route itself
 * would answer.
 *
 * ```ts
 * if (declaredLength > limit) return bodyTooLargeResponse(req.url ?? "/", limit);
 * ```
 */
export function bodyTooLargeResponse(url: string, limit: number): Response {
  const message = `request body exceeds the limit of ${limit} bytes`;
  // A path alone (a Node request's target) is enough: only the path picks the format.
  if (isMcpPath(url)) {
    return jsonRpcErrorResponse(413, JSONRPC_SERVER_ERROR, "payload_too_large", message);
  }
  return jsonResponse({ error: new VitrinaError("payload_too_large", message).toJSON() }, 413);
}
