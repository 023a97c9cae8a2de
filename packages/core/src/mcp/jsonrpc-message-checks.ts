import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { FieldReason } from "../errors.js";
import { reasonsFromZod } from "../validation.js";
import { JSONRPC_INVALID_PARAMS, JSONRPC_INVALID_REQUEST, jsonRpcErrorResponse } from "./jsonrpc-response.js";
import type { ToolCatalog } from "./mcp-server.js";

export type JsonRpcId = string | number | null;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The members each kind of message may have. The SDK's schemas are strict, and a stray member
 * otherwise fails all four branches of its union at once: a reason with no field ("Invalid input").
 */
const MESSAGE_KINDS = {
  request: { members: ["jsonrpc", "id", "method", "params"], label: "request (jsonrpc, id, method, params)" },
  notification: { members: ["jsonrpc", "method", "params"], label: "notification (jsonrpc, method, params)" },
  response: { members: ["jsonrpc", "id", "result", "error"], label: "response (jsonrpc, id, result or error)" },
};

const kindOf = (body: Record<string, unknown>) =>
  !("method" in body) ? MESSAGE_KINDS.response : "id" in body ? MESSAGE_KINDS.request : MESSAGE_KINDS.notification;

/**
 * Why a request's id can't be used: MCP (2025-06-18, basic) wants a string or an integer, and
 * "unlike base JSON-RPC, the ID MUST NOT be null"; the SDK's integers are the safe ones (±2^53).
 */
function requestIdReason(id: unknown): string | null {
  if (typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id))) return null;
  if (id === null) return "must not be null in MCP: send a string or an integer, or leave id out for a notification";
  if (typeof id === "number") return `must be a string or an integer within ±(2^53 - 1), not ${id}`;
  return "must be a string or an integer";
}

/** A response's id may be null (JSON-RPC: the answer to a request whose id could not be read). */
const responseIdReason = (id: unknown): string | null =>
  typeof id === "string" || typeof id === "number" || id === null ? null : "must be a string or a number";

/** What makes a parsed object no JSON-RPC 2.0 message, in words a person can act on. */
function envelopeReasons(body: Record<string, unknown>): FieldReason[] {
  const reasons: FieldReason[] = [];
  if (body.jsonrpc !== "2.0") reasons.push({ field: "jsonrpc", reason: 'must be "2.0"' });
  if ("id" in body) {
    const reason = "method" in body ? requestIdReason(body.id) : responseIdReason(body.id);
    if (reason !== null) reasons.push({ field: "id", reason });
  }
  const kind = kindOf(body);
  for (const key of Object.keys(body)) {
    if (!kind.members.includes(key))
      reasons.push({ field: key, reason: `is not a JSON-RPC 2.0 member of a ${kind.label}` });
  }
  if ("method" in body) {
    if (typeof body.method !== "string" || body.method === "")
      reasons.push({ field: "method", reason: "must be a non-empty string" });
    if ("params" in body && !isRecord(body.params))
      reasons.push({ field: "params", reason: "must be an object when present" });
  } else if (!("result" in body) && !("error" in body)) {
    reasons.push({ field: "method", reason: "is required (a response instead needs id and result or error)" });
  }
  return reasons;
}

/** Why a tools/call can't name a tool and its arguments; the SDK alone answers these with a zod dump as -32603. */
function toolCallReasons(params: unknown): FieldReason[] {
  if (!isRecord(params))
    return [{ field: "params", reason: "is required: an object with the tool's name and its arguments" }];
  const reasons: FieldReason[] = [];
  if (typeof params.name !== "string" || params.name === "")
    reasons.push({ field: "params.name", reason: "must be the name of a tool from tools/list" });
  if (params.arguments !== undefined && !isRecord(params.arguments))
    reasons.push({ field: "params.arguments", reason: "must be an object of named arguments when present" });
  if (params._meta !== undefined && !isRecord(params._meta))
    reasons.push({ field: "params._meta", reason: "must be an object when present" });
  return reasons;
}

/**
 * The SDK's schemas for the requests this server answers. The SDK checks a request against them
 * itself, but a failure there surfaces as -32603 Internal error with the zod issues as its message.
 * A Map, not an object literal: `method` is the caller's text, and on a plain object `constructor`,
 * `toString` or `__proto__` would find Object.prototype's members (a 500 instead of -32601).
 */
const REQUEST_SCHEMAS = new Map<
  string,
  { safeParse(value: unknown): { success: true } | { success: false; error: Parameters<typeof reasonsFromZod>[0] } }
>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
  ["tools/call", CallToolRequestSchema],
]);

const describe = (reasons: FieldReason[]) => reasons.map((r) => `${r.field} ${r.reason}`).join("; ");

/**
 * Refuses, as JSON-RPC errors, what the SDK would answer wrongly: a malformed envelope is -32600
 * Invalid Request (HTTP 400, id null: JSON-RPC says so when the request can't be read), where the
 * SDK says -32700 Parse error; a request whose params don't fit its method (a tools/call without
 * a usable name or arguments, `initialize` without capabilities…) is -32602 Invalid params, where
 * the SDK says -32603 with a zod dump, and so is a tools/call naming no listed tool; both answer
 * the request's id (HTTP 200). Null when the message may go on.
 */
export function refuseInvalidMessage(body: Record<string, unknown>, catalog: ToolCatalog): Response | null {
  const invalidRequest = (reasons: FieldReason[]) =>
    jsonRpcErrorResponse(
      400,
      JSONRPC_INVALID_REQUEST,
      "invalid_argument",
      `Invalid Request: ${describe(reasons)}`,
      {},
      null,
      reasons,
    );
  const envelope = envelopeReasons(body);
  if (envelope.length > 0) return invalidRequest(envelope);

  const id = (body.id ?? null) as JsonRpcId;
  const invalidParams = (reasons: FieldReason[]) =>
    jsonRpcErrorResponse(
      200,
      JSONRPC_INVALID_PARAMS,
      "invalid_payload",
      `Invalid params: ${describe(reasons)}`,
      {},
      id,
      reasons,
    );
  // A notification (no id) gets no answer, so only requests are checked further.
  if (id !== null && body.method === "tools/call") {
    const reasons = toolCallReasons(body.params);
    if (reasons.length > 0) return invalidParams(reasons);
    const name = (body.params as { name: string }).name;
    // MCP tools spec: an unknown tool is a protocol error, not a tool result.
    if (!catalog.byName.has(name))
      return jsonRpcErrorResponse(200, JSONRPC_INVALID_PARAMS, "not_found", `Unknown tool: ${name}`, {}, id);
  }
  const schema = id === null ? undefined : REQUEST_SCHEMAS.get(body.method as string);
  const params = schema?.safeParse(body);
  if (params?.success === false) return invalidParams(reasonsFromZod(params.error));
  const message = JSONRPCMessageSchema.safeParse(body);
  return message.success ? null : invalidRequest(reasonsFromZod(message.error));
}
