import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { FieldReason } from "../errors.js";
import { JSONRPC_INVALID_PARAMS, JSONRPC_INVALID_REQUEST, jsonRpcErrorResponse } from "./jsonrpc-response.js";
import type { ToolCatalog } from "./mcp-server.js";

export type JsonRpcId = string | number | null;

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** What makes a parsed object no JSON-RPC 2.0 message, in words a person can act on. */
function envelopeReasons(body: Record<string, unknown>): FieldReason[] {
  const reasons: FieldReason[] = [];
  if (body.jsonrpc !== "2.0") reasons.push({ field: "jsonrpc", reason: 'must be "2.0"' });
  if ("id" in body && typeof body.id !== "string" && typeof body.id !== "number" && body.id !== null) reasons.push({ field: "id", reason: "must be a string or a number" });
  if ("method" in body) {
    if (typeof body.method !== "string" || body.method === "") reasons.push({ field: "method", reason: "must be a non-empty string" });
    if ("params" in body && !isRecord(body.params)) reasons.push({ field: "params", reason: "must be an object when present" });
  } else if (!("result" in body) && !("error" in body)) {
    reasons.push({ field: "method", reason: "is required (a response instead needs id and result or error)" });
  }
  return reasons;
}

/** Why a tools/call can't name a tool and its arguments; the SDK alone answers these with a zod dump as -32603. */
function toolCallReasons(params: unknown): FieldReason[] {
  if (!isRecord(params)) return [{ field: "params", reason: "is required: an object with the tool's name and its arguments" }];
  const reasons: FieldReason[] = [];
  if (typeof params.name !== "string" || params.name === "") reasons.push({ field: "params.name", reason: "must be the name of a tool from tools/list" });
  if (params.arguments !== undefined && !isRecord(params.arguments)) reasons.push({ field: "params.arguments", reason: "must be an object of named arguments when present" });
  if (params._meta !== undefined && !isRecord(params._meta)) reasons.push({ field: "params._meta", reason: "must be an object when present" });
  return reasons;
}

const describe = (reasons: FieldReason[]) => reasons.map((r) => `${r.field} ${r.reason}`).join("; ");

/**
 * Refuses, as JSON-RPC errors, what the SDK would answer wrongly: a malformed envelope is -32600
 * Invalid Request (HTTP 400, id null: JSON-RPC says so when the request can't be read), where the
 * SDK says -32700 Parse error; a tools/call without a usable name or arguments, or naming no
 * listed tool, is -32602 Invalid params answering the request's id (HTTP 200). Null when the
 * message may go on.
 */
export function refuseInvalidMessage(body: Record<string, unknown>, catalog: ToolCatalog): Response | null {
  const envelope = envelopeReasons(body);
  if (envelope.length > 0 || !JSONRPCMessageSchema.safeParse(body).success) {
    const reasons = envelope.length > 0 ? envelope : [{ field: "", reason: "is not a JSON-RPC 2.0 request, notification or response" }];
    return jsonRpcErrorResponse(400, JSONRPC_INVALID_REQUEST, "invalid_argument", `Invalid Request: ${describe(reasons)}`, {}, null, reasons);
  }
  if (body.method !== "tools/call") return null;
  const id = (body.id ?? null) as JsonRpcId;
  const reasons = toolCallReasons(body.params);
  if (reasons.length > 0) return jsonRpcErrorResponse(200, JSONRPC_INVALID_PARAMS, "invalid_payload", `Invalid params: ${describe(reasons)}`, {}, id, reasons);
  const name = (body.params as { name: string }).name;
  // MCP tools spec: an unknown tool is a protocol error, not a tool result.
  if (!catalog.byName.has(name)) return jsonRpcErrorResponse(200, JSONRPC_INVALID_PARAMS, "not_found", `Unknown tool: ${name}`, {}, id);
  return null;
}
