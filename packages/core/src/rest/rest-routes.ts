import { CAPABILITY_CALL_BODY_LIMIT } from "../http/body-limits.js";
import { onlyReadsHeaders, unauthenticatedError, type Authenticator } from "../auth/principal.js";
import type { CapabilityService } from "../capabilities/capability-service.js";
import { AttemptInProgressError, InsufficientScopeError, NotFoundError, VitrinaError } from "../errors.js";
import { errorResponse, jsonResponseTo } from "../http/json.js";
import { readJsonBody } from "../http/read-json.js";
import type { RequestContext } from "../http/request-context.js";
import type { Route, RouteHandler } from "../http/router.js";
import { stepUpChallenge, unauthorizedChallenge } from "../oauth/bearer-challenge.js";
import { capabilityOperations } from "./capability-operations.js";
import { inputFromQuery } from "./query-input.js";
import { REST_PATH } from "./rest-options.js";

/** IETF httpapi idempotency-key draft: the header, and our bound on its length. */
const IDEMPOTENCY_HEADER = "Idempotency-Key";
const MAX_KEY_LENGTH = 255;

export interface RestRouteOptions {
  capabilities: CapabilityService;
  authenticate: Authenticator;
  /** REST's RFC 9728 metadata address, which its 401 and an OAuth caller's 403 name; absent when no metadata is served (OAuth off). */
  resourceMetadataUrl?: (request: Request) => string;
}

/** The request's `Idempotency-Key` when it is usable, else undefined (the runtime then refuses the call in its turn). */
function usableKey(header: string | null): string | undefined {
  return header !== null && header.length > 0 && header.length <= MAX_KEY_LENGTH ? header : undefined;
}

/** The 400 that says how to send the `Idempotency-Key` a `logical-attempt` command requires. */
function keyRefusal(capability: string, header: string | null): VitrinaError {
  return new VitrinaError(
    "invalid_argument",
    `${capability} changes data once per idempotency key: send an ${IDEMPOTENCY_HEADER} header (1 to ${MAX_KEY_LENGTH} characters, e.g. a UUID) and repeat it when you retry`,
    {
      reasons: [{ field: IDEMPOTENCY_HEADER, reason: header === null ? "is required" : "must be 1 to 255 characters" }],
    },
  );
}

/** The runtime's `idempotency_key_reused`, naming the header a REST caller sets instead of the runtime's `idempotencyKey`. */
function keyReused(error: VitrinaError): VitrinaError {
  return new VitrinaError("idempotency_key_reused", error.message, {
    reasons: [
      { field: IDEMPOTENCY_HEADER, reason: "was used with a different input; send a new key for a new change" },
    ],
    cause: error,
  });
}

/** The runtime's refusal of a call without an idempotency key (it names `idempotencyKey`). */
const refusesMissingKey = (error: unknown) =>
  error instanceof VitrinaError &&
  error.code === "invalid_argument" &&
  error.reasons.some((reason) => reason.field === "idempotencyKey");

/**
 * The 401 of a request no authenticator accepted. With OAuth on, its challenge names REST's own
 * metadata document (RFC 9728 §5.1), which is how an OAuth client finds the authorization server
 * for this resource; without it, the service-wide `Bearer realm="vitrina"` challenge stands.
 */
function refuseUnauthenticated(request: Request, options: RestRouteOptions, context: RequestContext): Response {
  const metadataUrl = options.resourceMetadataUrl?.(request);
  const challenge: Record<string, string> =
    metadataUrl === undefined
      ? {}
      : { "www-authenticate": unauthorizedChallenge(request, { resourceMetadata: metadataUrl }) };
  // A metadata URL means OAuth is on, so a token that is not an API key is taken for an access token.
  const error = unauthenticatedError(request, { oauth: metadataUrl !== undefined });
  return errorResponse(error, context.logger, challenge, context.requestId);
}

/**
 * `GET|POST /v1/rest/{capability}`: every registered capability over HTTP, through the same
 * runtime as MCP and agent runs (scopes, input and output validation, policies, provenance).
 * Queries answer `GET` (input from query parameters) and `POST` (a JSON body); commands only
 * `POST`. A `logical-attempt` command needs an `Idempotency-Key`: the same key with the same input
 * replays the recorded outcome (`Idempotent-Replayed: true`), with another input it is 422
 * `idempotency_key_reused`, and while the first call still runs it is 409 with `Retry-After`.
 */
export function restRoutes(options: RestRouteOptions): Route[] {
  const { capabilities } = options;
  // As on POST /mcp: the server binding's request as it came (body read with readBodyLimited,
  // answer made with jsonResponseTo) while every authenticator is core's own, which read headers
  // only; with an embedder's, the router hands the route a real web Request.
  const readsBodyDirectly = onlyReadsHeaders(options.authenticate);
  const invoke =
    (method: "GET" | "POST"): RouteHandler =>
    async (request, params, context) => {
      const name = params.capability!;
      const descriptor = capabilities.descriptor(name);
      if (descriptor === undefined) {
        await request.body?.cancel().catch(() => {});
        throw new NotFoundError(`no capability named ${name}; GET /v1/capabilities lists them`);
      }
      if (method === "GET" && descriptor.execution === "command") {
        await request.body?.cancel().catch(() => {});
        return errorResponse(
          new VitrinaError("method_not_allowed", `${name} is a command: call it with POST and a JSON body`),
          context.logger,
          { allow: "POST" },
          context.requestId,
        );
      }
      const principal = await options.authenticate(request);
      if (principal === null) return refuseUnauthenticated(request, options, context);
      const keyed = descriptor.idempotency.strategy === "logical-attempt";
      // Not refused here when missing: the runtime judges scopes and input first, so a key without
      // the scope hears 403 and a bad body 422, not "send a header"; its refusal is renamed below.
      const keyHeader = keyed ? request.headers.get(IDEMPOTENCY_HEADER) : null;
      const idempotencyKey = keyed ? usableKey(keyHeader) : undefined;
      const input =
        method === "GET"
          ? inputFromQuery(new URL(request.url).searchParams, descriptor.inputSchema)
          : await readJsonBody(request, { maxBytes: CAPABILITY_CALL_BODY_LIMIT });
      let result: Awaited<ReturnType<CapabilityService["invoke"]>>;
      try {
        result = await capabilities.invoke(name, input, {
          principal: { workspaceId: principal.workspaceId, scopes: principal.scopes, actorId: principal.keyId },
          ...(idempotencyKey !== undefined && { idempotencyKey }),
        });
      } catch (error) {
        if (error instanceof InsufficientScopeError) {
          // An OAuth caller learns the scopes to ask for and where REST's metadata is (as its 401 says).
          const challenge = stepUpChallenge(
            principal,
            options.resourceMetadataUrl?.(request),
            descriptor.requiredScopes,
          );
          if (challenge === null) throw error;
          return errorResponse(error, context.logger, { "www-authenticate": challenge }, context.requestId);
        }
        if (keyed && idempotencyKey === undefined && refusesMissingKey(error)) throw keyRefusal(name, keyHeader);
        if (error instanceof VitrinaError && error.code === "idempotency_key_reused") throw keyReused(error);
        if (!(error instanceof AttemptInProgressError)) throw error;
        // The first call with this key still runs: say when its lease ends, so the retry replays it.
        const seconds = Math.max(1, Math.ceil((Date.parse(error.retryAt) - Date.now()) / 1000));
        return errorResponse(error, context.logger, { "retry-after": String(seconds) }, context.requestId);
      }
      const { output, provenance } = result;
      const replayed = keyed && provenance.freshness === "recorded";
      return jsonResponseTo(request, { output, provenance }, 200, replayed ? { "idempotent-replayed": "true" } : {});
    };
  return [
    {
      method: "GET",
      path: `${REST_PATH}/:capability`,
      readsBodyDirectly,
      handler: invoke("GET"),
      openapi: capabilityOperations(() => capabilities.catalog().capabilities, "GET"),
    },
    {
      method: "POST",
      path: `${REST_PATH}/:capability`,
      readsBodyDirectly,
      handler: invoke("POST"),
      openapi: capabilityOperations(() => capabilities.catalog().capabilities, "POST"),
    },
  ];
}
