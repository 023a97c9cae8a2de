import type { FieldReason, VitrinaErrorCode } from "../errors.js";
import { jsonResponse } from "../http/json.js";

/** JSON-RPC 2.0 error codes used before a request reaches the SDK. */
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_INVALID_PARAMS = -32602;
/** Implementation-defined server error (-32000..-32099), what the SDK transport uses for HTTP-level refusals. */
export const JSONRPC_SERVER_ERROR = -32000;

/**
 * Refusals on `/mcp` are JSON-RPC error objects (what MCP clients parse), with our stable error
 * code in `error.data.code` so they read like every other Vitrina error (and, for invalid input,
 * `error.data.reasons`: `[{ field, reason }]`).
 */
export function jsonRpcErrorResponse(
  status: number,
  rpcCode: number,
  code: VitrinaErrorCode,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
  reasons?: FieldReason[],
): Response {
  const data = reasons === undefined ? { code } : { code, reasons };
  return jsonResponse({ jsonrpc: "2.0", id, error: { code: rpcCode, message, data } }, status, headers);
}
