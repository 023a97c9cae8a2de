import { VitrinaError } from "../errors.js";
import { readBodyLimited } from "../http/read-body.js";
import { decodeJsonBody } from "../http/read-json.js";
import { unauthorizedChallenge } from "../oauth/bearer-challenge.js";
import { missingScopes } from "../auth/scopes.js";
import type { Authenticator, Principal } from "../auth/authenticators.js";
import {
  JSONRPC_INVALID_PARAMS,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_PARSE_ERROR,
  JSONRPC_SERVER_ERROR,
  jsonRpcErrorResponse,
} from "./jsonrpc-response.js";
import { isRecord, refuseInvalidMessage, type JsonRpcId } from "./jsonrpc-message-checks.js";
import type { OriginPolicy } from "./mcp-cors.js";
import type { ToolCatalog } from "./mcp-server.js";
import { isAcceptedProtocolHeader, negotiateProtocolVersion, ACCEPTED_PROTOCOL_VERSIONS } from "./protocol.js";

export interface RequestShapeOptions {
  isAllowedOrigin: OriginPolicy;
  /** The RFC 9728 metadata address the 401 names; absent when no metadata is served (OAuth off). */
  resourceMetadataUrl?: (request: Request) => string;
  catalog: ToolCatalog;
}

/**
 * Whether an `Accept` header lets us answer JSON: absent, `application/json`, `application/*` or
 * `*\/*`, at a non-zero quality. The server never streams, so `text/event-stream` is not needed.
 */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === "") return true;
  return accept.split(",").some((part) => {
    const [range = "", ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    const quality = params.find((p) => p.startsWith("q="));
    if (quality !== undefined && Number(quality.slice(2)) === 0) return false;
    return range === "application/json" || range === "application/*" || range === "*/*";
  });
}

/**
 * Everything the SDK transport would not refuse (or would refuse wrongly) on its own, in order:
 * Origin, protocol version header, Accept, bearer token, body size and JSON, batches, the
 * JSON-RPC envelope and tools/call parameters, and the tool's scopes. Returns the refusal,
 * or the principal and the parsed body (with `initialize` pinned to our protocol version) to
 * hand to the transport.
 */
export async function checkRequestShape(
  request: Request,
  options: RequestShapeOptions,
  authenticate: Authenticator,
  maxBodyBytes: number,
): Promise<Response | { principal: Principal; body: unknown }> {
  const refuse = async (...args: Parameters<typeof jsonRpcErrorResponse>) => {
    await request.body?.cancel().catch(() => {});
    return jsonRpcErrorResponse(...args);
  };
  const origin = request.headers.get("origin");
  if (origin !== null && !options.isAllowedOrigin(request, origin)) {
    return refuse(403, JSONRPC_SERVER_ERROR, "forbidden", `Origin ${origin} is not allowed to call this MCP server`);
  }
  const version = request.headers.get("mcp-protocol-version");
  if (!isAcceptedProtocolHeader(version)) {
    return refuse(
      400,
      JSONRPC_SERVER_ERROR,
      "invalid_argument",
      `Unsupported MCP-Protocol-Version ${version}; supported: ${ACCEPTED_PROTOCOL_VERSIONS.join(", ")}`,
    );
  }
  if (!acceptsJson(request.headers.get("accept"))) {
    return refuse(
      406,
      JSONRPC_SERVER_ERROR,
      "invalid_argument",
      "Not Acceptable: this server answers application/json only; send Accept: application/json (or none)",
    );
  }
  const principal = await authenticate(request);
  if (principal === null) {
    // `error="invalid_token"` only when a token was sent (RFC 6750 §3.1).
    return refuse(401, JSONRPC_SERVER_ERROR, "unauthorized", "Missing or invalid bearer token", {
      "www-authenticate": unauthorizedChallenge(request, { resourceMetadata: options.resourceMetadataUrl?.(request) }),
    });
  }

  let parsed: unknown;
  let bytes: Uint8Array;
  try {
    // The SDK transport checks Content-Type itself (415), after this.
    bytes = await readBodyLimited(request, maxBodyBytes);
    parsed = decodeJsonBody(bytes, { subject: "JSON-RPC message" });
  } catch (error) {
    return refuseUnreadableBody(error, () => requestIdOf(bytes));
  }
  if (Array.isArray(parsed)) {
    return jsonRpcErrorResponse(
      400,
      JSONRPC_INVALID_REQUEST,
      "invalid_argument",
      "JSON-RPC batches are not supported (removed in MCP 2025-06-18); send one message per request",
    );
  }
  if (!isRecord(parsed))
    return jsonRpcErrorResponse(
      400,
      JSONRPC_INVALID_REQUEST,
      "invalid_argument",
      "Invalid Request: expected a JSON-RPC message object",
    );

  const invalid = refuseInvalidMessage(parsed, options.catalog);
  if (invalid !== null) return invalid;
  let body = parsed;
  const id: JsonRpcId = typeof body.id === "string" || typeof body.id === "number" ? body.id : null;
  const params = isRecord(body.params) ? body.params : undefined;
  if (body.method === "initialize" && params !== undefined) {
    body = { ...body, params: { ...params, protocolVersion: negotiateProtocolVersion(params.protocolVersion) } };
  }
  if (body.method === "tools/call" && typeof params?.name === "string") {
    const tool = options.catalog.byName.get(params.name);
    if (tool !== undefined && missingScopes(principal, tool.scope).length > 0) {
      const scope = tool.scope.requiredScopes.join(" ");
      const need = tool.scope.scopeMatch === "allOf" ? "all of" : "one of";
      return jsonRpcErrorResponse(
        403,
        JSONRPC_SERVER_ERROR,
        "insufficient_scope",
        `${tool.name} needs ${need} the scopes: ${scope}`,
        {
          "www-authenticate": `Bearer error="insufficient_scope", scope="${scope}", error_description="${tool.name} needs ${need}: ${scope}"`,
        },
        id,
      );
    }
  }
  return { principal, body };
}

/**
 * The body reader's refusals as JSON-RPC errors: too large is a transport-level -32000 (413), bad
 * bytes or syntax a -32700 parse error, and unstorable text or too-deep nesting (valid JSON) an
 * invalid request, or invalid params when the field is inside `params`, with `data.reasons` naming
 * the JSON path. Such a body is valid JSON, so its request id is recovered and the error answers
 * that request (HTTP 200, as for any JSON-RPC error to a well-formed request); otherwise the id is
 * null and the status says what went wrong.
 */
function refuseUnreadableBody(error: unknown, requestId: () => JsonRpcId): Response {
  if (!(error instanceof VitrinaError)) throw error;
  if (error.code === "payload_too_large")
    return jsonRpcErrorResponse(413, JSONRPC_SERVER_ERROR, "payload_too_large", error.message);
  if (error.code === "invalid_payload") {
    const inParams = error.reasons.every(
      (r) => r.field === "params" || r.field.startsWith("params.") || r.field.startsWith("params["),
    );
    const fields = error.reasons.map((r) => `${r.field} ${r.reason}`).join("; ");
    const id = requestId();
    return jsonRpcErrorResponse(
      id === null ? 400 : 200,
      inParams ? JSONRPC_INVALID_PARAMS : JSONRPC_INVALID_REQUEST,
      "invalid_payload",
      `Invalid ${inParams ? "params" : "Request"}: ${fields}`,
      {},
      id,
      error.reasons,
    );
  }
  return jsonRpcErrorResponse(
    400,
    JSONRPC_PARSE_ERROR,
    "malformed_json",
    "Parse error: the body is not valid UTF-8 JSON",
  );
}

/** The id of a body that parsed as JSON but was refused for its content; null when there is none. */
function requestIdOf(bytes: Uint8Array | undefined): JsonRpcId {
  if (bytes === undefined) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    const id = isRecord(value) ? value.id : null;
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}
