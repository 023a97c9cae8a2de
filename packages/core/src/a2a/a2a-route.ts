import { onlyReadsHeaders, unauthenticatedError, type Authenticator, type Principal } from "../auth/principal.js";
import type { CapabilityService } from "../capabilities/capability-service.js";
import { describeError } from "../logging/loggers.js";
import { InsufficientScopeError, VitrinaError } from "../errors.js";
import { bearerChallenge, jsonResponseTo } from "../http/json.js";
import type { RequestContext } from "../http/request-context.js";
import type { Route } from "../http/router.js";
import type { IdGenerator } from "../ports/ids.js";
import { stepUpChallenge, unauthorizedChallenge } from "../oauth/bearer-challenge.js";
import { A2A_ERROR_CODE, A2aFailure, failureOfCapability, invalidParams, jsonRpcError } from "./a2a-errors.js";
import { isV03MethodName, REFUSED_METHODS } from "./a2a-methods.js";
import { A2A_PATH, A2A_PROTOCOL_VERSION, CAPABILITY_CALL_EXTENSION } from "./a2a-options.js";
import { readJsonRpcRequest, type JsonRpcId } from "./jsonrpc-envelope.js";
import { capabilityCallOf } from "./send-message-request.js";

export interface A2aRouteOptions {
  capabilities: CapabilityService;
  authenticate: Authenticator;
  ids: IdGenerator;
  /** A2A's RFC 9728 metadata address, which its 401 and an OAuth caller's 403 name; absent when OAuth is off. */
  resourceMetadataUrl?: (request: Request) => string;
}

/** A2A v1.0 clients send `A2A-Version`; without it a server must assume 0.3, which is not served here. */
function checkVersion(request: Request): void {
  const requested = request.headers.get("a2a-version")?.trim() ?? "";
  if (requested === A2A_PROTOCOL_VERSION || requested === "1") return;
  throw new A2aFailure(
    A2A_ERROR_CODE.VERSION_NOT_SUPPORTED,
    `this agent speaks A2A ${A2A_PROTOCOL_VERSION} only: send the header A2A-Version: ${A2A_PROTOCOL_VERSION}` +
      (requested === "" ? " (a request without it is taken for v0.3, which is not served)" : ` (got ${requested})`),
  );
}

/** The 401 of a request no authenticator accepted; with OAuth on, its challenge names A2A's own metadata (RFC 9728 §5.1). */
function unauthenticated(request: Request, options: A2aRouteOptions): A2aFailure {
  const metadataUrl = options.resourceMetadataUrl?.(request);
  const error = unauthenticatedError(request, { oauth: metadataUrl !== undefined });
  const challenge =
    metadataUrl === undefined
      ? bearerChallenge(error)
      : unauthorizedChallenge(request, { resourceMetadata: metadataUrl });
  return new A2aFailure(A2A_ERROR_CODE.REFUSED, error.message, {
    code: error.code,
    httpStatus: 401,
    ...(challenge !== null && { headers: { "www-authenticate": challenge } }),
  });
}

/**
 * `SendMessage`: the data part's capability through the same `capabilities.invoke` as MCP and REST
 * (scopes, validation, policies, idempotency, traces), answered with a Message whose one data part
 * is the output and whose metadata carries its provenance.
 */
async function sendMessage(params: unknown, principal: Principal, request: Request, options: A2aRouteOptions) {
  const call = capabilityCallOf(params);
  try {
    const { output, provenance } = await options.capabilities.invoke(call.capability, call.input, {
      principal: { workspaceId: principal.workspaceId, scopes: principal.scopes, actorId: principal.keyId },
      ...(call.idempotencyKey !== undefined && { idempotencyKey: call.idempotencyKey }),
    });
    return {
      message: {
        messageId: options.ids(),
        contextId: call.contextId ?? options.ids(),
        role: "ROLE_AGENT",
        parts: [{ data: output, mediaType: "application/json" }],
        metadata: { capability: call.capability, provenance },
        extensions: [CAPABILITY_CALL_EXTENSION],
      },
    };
  } catch (error) {
    if (!(error instanceof VitrinaError)) throw error;
    // The descriptor (a deep copy) is read on these refusals only, not on every call.
    const descriptor = options.capabilities.descriptor(call.capability);
    if (descriptor === undefined)
      throw invalidParams(
        `no capability named ${call.capability}`,
        [
          {
            field: "message.parts[0].data.capability",
            reason: "names no capability; the card's skills and GET /v1/capabilities list them",
          },
        ],
        "not_found",
      );
    const failure = failureOfCapability(error);
    // An OAuth caller learns the scopes to ask for and where A2A's metadata is (as its 401 says);
    // an API key can't step up, so its 403 says only what REST's does.
    const challenge =
      error instanceof InsufficientScopeError
        ? (stepUpChallenge(principal, options.resourceMetadataUrl?.(request), descriptor.requiredScopes) ??
          bearerChallenge(error))
        : null;
    if (challenge !== null) failure.details.headers = { "www-authenticate": challenge };
    throw failure;
  }
}

/** The method's result, or the A2A error it is refused with. */
async function dispatch(
  method: string,
  params: unknown,
  principal: Principal,
  request: Request,
  options: A2aRouteOptions,
) {
  if (method === "SendMessage") return sendMessage(params, principal, request, options);
  // A Map: a method named `constructor` or `__proto__` must find nothing, not Object's.
  const refused = REFUSED_METHODS.get(method);
  if (refused !== undefined) throw refused();
  const named = method.length > 64 ? `${method.slice(0, 64)}…` : method;
  throw new A2aFailure(
    A2A_ERROR_CODE.METHOD_NOT_FOUND,
    isV03MethodName(method)
      ? `${named} is an A2A v0.3 name; this agent speaks v1.0: call SendMessage`
      : `no method ${named}; this agent serves SendMessage`,
  );
}

/** A refusal as a JSON-RPC error response; internal errors logged in full, rejections briefly and without input. */
function refusalResponse(
  request: Request,
  failure: A2aFailure,
  id: JsonRpcId,
  method: string | undefined,
  context: RequestContext,
) {
  const status = failure.details.httpStatus ?? 200;
  const fields = failure.details.reasons?.map((r) => r.field);
  const logged = { code: failure.details.code, rpcCode: failure.rpcCode, status, method: method?.slice(0, 64), fields };
  if (status >= 500)
    context.logger.error(
      { ...logged, ...(failure.cause !== undefined && { cause: describeError(failure.cause) }) },
      failure.message,
    );
  else context.logger.info(logged, "a2a request refused");
  return jsonResponseTo(
    request,
    { jsonrpc: "2.0", id, error: jsonRpcError(failure, context.requestId) },
    status,
    failure.details.headers ?? {},
  );
}

/**
 * `POST /a2a`: A2A v1.0's JSON-RPC binding over the capability runtime. Credentials are checked
 * before the body is read; then the envelope, the version, and the method. Hostile input (U+0000,
 * lone surrogates, deep nesting, wrong parts) gets an A2A error naming the field, never a 5xx.
 */
export function a2aRoutes(options: A2aRouteOptions): Route[] {
  // As on REST and /mcp: the binding's request as it came while every authenticator is core's own.
  const readsBodyDirectly = onlyReadsHeaders(options.authenticate);
  return [
    {
      method: "POST",
      path: A2A_PATH,
      readsBodyDirectly,
      openapi: false,
      undocumented: "the A2A endpoint: JSON-RPC, described by the A2A specification and the agent card's skills",
      async handler(request, _params, context) {
        let id: JsonRpcId = null;
        let method: string | undefined;
        try {
          const principal = await options.authenticate(request);
          if (principal === null) {
            await request.body?.cancel().catch(() => {});
            throw unauthenticated(request, options);
          }
          const rpc = await readJsonRpcRequest(request);
          ({ id, method } = rpc);
          checkVersion(request);
          const result = await dispatch(rpc.method, rpc.params, principal, request, options);
          return jsonResponseTo(request, { jsonrpc: "2.0", id, result });
        } catch (error) {
          if (error instanceof A2aFailure)
            return refusalResponse(request, error, error.details.id ?? id, method, context);
          // Not ours on purpose: a bug or storage trouble, told apart by its code when it has one.
          const failure =
            error instanceof VitrinaError
              ? failureOfCapability(error)
              : new A2aFailure(A2A_ERROR_CODE.INTERNAL_ERROR, "internal error", {
                  code: "internal",
                  httpStatus: 500,
                  cause: error,
                });
          return refusalResponse(request, failure, id, method, context);
        }
      },
    },
  ];
}
