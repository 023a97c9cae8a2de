import Negotiator from "negotiator";
import { VitrinaError } from "../errors.js";
import { readBodyLimited } from "../http/read-body.js";
import { decodeJsonBody } from "../http/read-json.js";
import { quoted, stepUpChallenge, unauthorizedChallenge } from "../oauth/bearer-challenge.js";
import { missingScopes } from "../auth/scopes.js";
import type { Authenticator, Principal } from "../auth/authenticators.js";
import { unauthenticatedError } from "../auth/principal.js";
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
  /** The RFC 9728 metadata address the 401 and an OAuth caller's 403 name; absent when no metadata is served (OAuth off). */
  resourceMetadataUrl?: (request: Request) => string;
  catalog: ToolCatalog;
}

/**
 * What this server answers. JSON text is UTF-8 (RFC 8259 §8.1), so offering the charset as well
 * lets `Accept: application/json; charset=utf-8` match while `application/json` still does.
 */
const ANSWERED_MEDIA_TYPES = ["application/json; charset=utf-8"];

/**
 * Whether an `Accept` header lets us answer JSON (RFC 9110 §12.5.1): absent, blank, or with a range
 * covering `application/json` (`application/json`, `application/*`, `*\/*`) whose quality is not 0.
 * The most specific matching range decides, so `application/json;q=0, *\/*` rules JSON out. The
 * server never streams, so `text/event-stream` is not needed. Parsed by `negotiator` (Express's).
 */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === "") return true;
  return new Negotiator({ headers: { accept } }).mediaType(ANSWERED_MEDIA_TYPES) !== undefined;
}

/**
 * Everything the SDK transport would not refuse (or would refuse wrongly) on its own, one step
 * each, in order: Origin, protocol version header, Accept, bearer token, body (size, JSON, no
 * batches, an object), the JSON-RPC envelope and tools/call parameters, the `initialize` version
 * pin, and the tool's scopes. Returns the first refusal, or the principal and the parsed body to
 * hand to the transport.
 */
export async function checkRequestShape(
  request: Request,
  options: RequestShapeOptions,
  authenticate: Authenticator,
  maxBodyBytes: number,
): Promise<Response | { principal: Principal; body: unknown }> {
  const early =
    refuseForeignOrigin(request, options) ?? refuseUnsupportedProtocolVersion(request) ?? refuseUnacceptable(request);
  if (early !== null) return discardingBody(request, early);
  const principal = await authenticate(request);
  if (principal === null) return discardingBody(request, refuseUnauthenticated(request, options));
  const message = await readMessage(request, maxBodyBytes);
  if (message instanceof Response) return message;
  const invalid = refuseInvalidMessage(message, options.catalog);
  if (invalid !== null) return invalid;
  const refusal = refuseMissingToolScope(message, principal, options.catalog, options.resourceMetadataUrl?.(request));
  if (refusal !== null) return refusal;
  return { principal, body: pinInitializeVersion(message) };
}

/** A refusal sent before the body was read: the body is discarded so the client isn't left sending it. */
async function discardingBody(request: Request, refusal: Response): Promise<Response> {
  await request.body?.cancel().catch(() => {});
  return refusal;
}

function refuseForeignOrigin(request: Request, options: RequestShapeOptions): Response | null {
  const origin = request.headers.get("origin");
  if (origin === null || options.isAllowedOrigin(request, origin)) return null;
  return jsonRpcErrorResponse(
    403,
    JSONRPC_SERVER_ERROR,
    "forbidden",
    `Origin ${origin} is not allowed to call this MCP server`,
  );
}

function refuseUnsupportedProtocolVersion(request: Request): Response | null {
  const version = request.headers.get("mcp-protocol-version");
  if (isAcceptedProtocolHeader(version)) return null;
  return jsonRpcErrorResponse(
    400,
    JSONRPC_SERVER_ERROR,
    "invalid_argument",
    `Unsupported MCP-Protocol-Version ${version}; supported: ${ACCEPTED_PROTOCOL_VERSIONS.join(", ")}`,
  );
}

function refuseUnacceptable(request: Request): Response | null {
  if (acceptsJson(request.headers.get("accept"))) return null;
  return jsonRpcErrorResponse(
    406,
    JSONRPC_SERVER_ERROR,
    "invalid_argument",
    "Not Acceptable: this server answers application/json only; send Accept: application/json (or none)",
  );
}

function refuseUnauthenticated(request: Request, options: RequestShapeOptions): Response {
  const resourceMetadata = options.resourceMetadataUrl?.(request);
  // The message says what to fix for the credential sent, as REST's 401 does (OAuth is on when
  // metadata is served); `error="invalid_token"` only when a token was sent (RFC 6750 §3.1).
  const { message } = unauthenticatedError(request, { oauth: resourceMetadata !== undefined });
  return jsonRpcErrorResponse(401, JSONRPC_SERVER_ERROR, "unauthorized", message, {
    "www-authenticate": unauthorizedChallenge(request, { resourceMetadata }),
  });
}

/** The body as one JSON-RPC message object, or the refusal: too large, not JSON, a batch, not an object. */
async function readMessage(request: Request, maxBodyBytes: number): Promise<Record<string, unknown> | Response> {
  let parsed: unknown;
  let bytes: Uint8Array | undefined;
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
  return parsed;
}

/** `initialize` answered with the protocol version we speak, whatever the client proposed. */
function pinInitializeVersion(message: Record<string, unknown>): Record<string, unknown> {
  if (message.method !== "initialize" || !isRecord(message.params)) return message;
  return {
    ...message,
    params: { ...message.params, protocolVersion: negotiateProtocolVersion(message.params.protocolVersion) },
  };
}

/**
 * A tools/call of a known tool the principal lacks the scopes for: HTTP 403 with the RFC 6750
 * challenge, as MCP's authorization spec (2025-06-18, "Error Handling") wants for insufficient
 * scopes, rather than a JSON-RPC error in a 200. An OAuth caller's challenge also names `/mcp`'s
 * metadata URL (the 401's), from which it can step up; an API key's has no such URL to offer.
 */
function refuseMissingToolScope(
  message: Record<string, unknown>,
  principal: Principal,
  catalog: ToolCatalog,
  resourceMetadata: string | undefined,
): Response | null {
  const params = isRecord(message.params) ? message.params : undefined;
  if (message.method !== "tools/call" || typeof params?.name !== "string") return null;
  const tool = catalog.byName.get(params.name);
  if (tool === undefined || missingScopes(principal, tool.scope).length === 0) return null;
  const id: JsonRpcId = typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
  const scopes = tool.scope.requiredScopes;
  const scope = scopes.join(" ");
  const need = tool.scope.scopeMatch === "allOf" ? "all of" : "one of";
  const challenge =
    stepUpChallenge(principal, resourceMetadata, scopes) ?? `Bearer error="insufficient_scope", scope=${quoted(scope)}`;
  return jsonRpcErrorResponse(
    403,
    JSONRPC_SERVER_ERROR,
    "insufficient_scope",
    `${tool.name} needs ${need} the scopes: ${scope}`,
    { "www-authenticate": `${challenge}, error_description=${quoted(`${tool.name} needs ${need}: ${scope}`)}` },
    id,
  );
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
