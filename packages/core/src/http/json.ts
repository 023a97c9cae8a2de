import { VitrinaError, type VitrinaErrorCode } from "../errors.js";
import { UnauthenticatedError } from "../auth/principal.js";
import { type Logger } from "../ports/logger.js";
import { describeError } from "../logging/loggers.js";
import { responderOf } from "./direct-body.js";

/** The one place HTTP statuses are chosen for error codes. Documented in the core README. */
export const STATUS_BY_CODE: Record<VitrinaErrorCode, number> = {
  missing_signature_headers: 401,
  invalid_timestamp: 401,
  timestamp_expired: 401,
  timestamp_in_future: 401,
  unknown_connector: 401,
  invalid_signature: 401,
  unauthorized: 401,
  insufficient_scope: 403,
  policy_blocked: 403,
  forbidden: 403,
  malformed_json: 400,
  invalid_argument: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  invalid_payload: 422,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_reused: 422,
  messaging_failed: 502,
  window_closed: 409,
  storage_unavailable: 503,
  storage_timeout: 503,
  shutting_down: 503,
  // Middleware in front of Vitrina read the body: the app's mistake, not the sender's, so a 5xx (senders retry).
  body_already_consumed: 500,
  internal: 500,
};

export function statusForCode(code: VitrinaErrorCode): number {
  return STATUS_BY_CODE[code];
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: jsonHeaders(headers) });
}

const jsonHeaders = (headers: Record<string, string>) => ({
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  ...headers,
});

/**
 * `jsonResponse`, answered through the server binding's own response when `request` came from one
 * (see `direct-body.ts`): for routes marked `readsBodyDirectly`, whose answer goes straight back.
 */
export function jsonResponseTo(
  request: Request,
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  const respond = responderOf(request);
  return respond === undefined
    ? jsonResponse(body, status, headers)
    : respond(status, jsonHeaders(headers), JSON.stringify(body));
}

/**
 * What every route answers once `vitrina.close()` began: the storage is going away, so a clear
 * 503 the client may retry elsewhere, not a 500 per request. Not logged: it is expected.
 */
export function shuttingDownResponse(): Response {
  const error = new VitrinaError(
    "shutting_down",
    "this server is shutting down; retry on another instance or in a moment",
  );
  return jsonResponse({ error: error.toJSON() }, statusForCode(error.code), { "retry-after": "5" });
}

/**
 * Error body for the whole service: `{ "error": { "code", "message", "reasons": [{ "field", "reason" }], "request_id" } }`.
 * Every 5xx is logged at error level with its cause, because only an operator can fix it.
 * Anything that is not a VitrinaError, or is one with code `internal`, is a bug or a
 * misconfiguration: logged in full, answered with a generic 500 so internals never leak.
 */
export function errorResponse(
  error: unknown,
  logger: Logger,
  headers: Record<string, string> = {},
  requestId?: string,
): Response {
  const withId = <T extends object>(body: T) => (requestId === undefined ? body : { ...body, request_id: requestId });
  if (error instanceof VitrinaError) {
    const status = statusForCode(error.code);
    if (status >= 500)
      logger.error(
        { code: error.code, status, ...(error.cause === undefined ? {} : { cause: describeError(error.cause) }) },
        error.message,
      );
    const challenge = bearerChallenge(error);
    // An `internal` error's message is for the operator (it may name a connector, a key, a schema
    // mismatch): logged above, answered like any other bug.
    const body =
      error.code === "internal" ? { code: "internal", message: "internal error", reasons: [] } : error.toJSON();
    return jsonResponse(
      { error: withId(body) },
      status,
      challenge === null ? headers : { "www-authenticate": challenge, ...headers },
    );
  }
  logger.error({ code: "internal", status: 500, cause: describeError(error) }, "unhandled error");
  return jsonResponse({ error: withId({ code: "internal", message: "internal error", reasons: [] }) }, 500, headers);
}

/**
 * RFC 6750 challenges for the bearer-protected routes (a route with OAuth passes its own, with
 * the metadata URL). A bearer token that was sent and refused is `error="invalid_token"` (§3.1).
 */
export function bearerChallenge(error: VitrinaError): string | null {
  if (error instanceof UnauthenticatedError && error.tokenPresented)
    return 'Bearer realm="vitrina", error="invalid_token"';
  if (error.code === "unauthorized") return 'Bearer realm="vitrina"';
  if (error.code === "insufficient_scope") return 'Bearer realm="vitrina", error="insufficient_scope"';
  return null;
}
