import { InvalidRequestError, OAuthError, ServerError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { VitrinaError } from "../errors.js";
import { readFormBody } from "../http/read-form.js";
import type { Route, RouteHandler } from "../http/router.js";

/** OAuth endpoints answer with RFC 6749 §5.2 bodies, not Vitrina's error body. */
export function oauthErrorResponse(error: OAuthError, headers: Record<string, string> = {}): Response {
  if (error.errorCode === "invalid_client") {
    // RFC 6749 §5.2: a 401 for client authentication names the scheme clients may use.
    return oauthJson(error.toResponseObject(), 401, { "www-authenticate": 'Basic realm="oauth"', ...headers });
  }
  return oauthJson(error.toResponseObject(), error instanceof ServerError ? 500 : 400, headers);
}

/** JSON with `Cache-Control: no-store` (RFC 6749 §5.1: token responses must never be cached). */
export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache", ...headers },
  });
}

/** Catches OAuth errors (and an oversized body) into their RFC body; anything else is a bug for the router. */
export function catchOAuthErrors(handler: RouteHandler): RouteHandler {
  return async (request, params, context) => {
    try {
      return await handler(request, params, context);
    } catch (error) {
      if (error instanceof OAuthError) return oauthErrorResponse(error);
      if (error instanceof VitrinaError && (error.code === "payload_too_large" || error.code === "invalid_argument")) {
        const status = error.code === "payload_too_large" ? 413 : 400;
        return oauthJson(new InvalidRequestError(error.message).toResponseObject(), status);
      }
      throw error;
    }
  };
}

/**
 * A token, revoke or consent form, by the one form reader's rules, its refusals told as RFC 6749
 * `invalid_request` (an oversized body stays a 413, see `catchOAuthErrors`).
 */
export async function readOAuthForm(request: Request): Promise<URLSearchParams> {
  let form: URLSearchParams;
  try {
    form = await readFormBody(request);
  } catch (error) {
    if (error instanceof VitrinaError && error.code !== "payload_too_large") {
      // `%00` decodes to U+0000, which no client id, code or token holds and PostgreSQL cannot compare.
      const [first] = error.reasons;
      throw new InvalidRequestError(first === undefined ? error.message : `parameter ${first.field} ${first.reason}`);
    }
    throw error;
  }
  // RFC 6749 §3.2: a parameter must not be sent twice; refusing avoids "which one wins" bugs.
  for (const key of new Set(form.keys())) {
    if (form.getAll(key).length > 1) throw new InvalidRequestError(`parameter ${key} was sent more than once`);
  }
  return form;
}

/**
 * The route plus an OPTIONS preflight, with CORS headers on every answer, so browser-based MCP
 * clients can discover, register and get tokens. No credentials are ever CORS-allowed: clients
 * authenticate with parameters or `Authorization`, not cookies.
 */
export function withCors(allowOrigin: string, method: string, path: string, handler: RouteHandler): Route[] {
  const cors = {
    "access-control-allow-origin": allowOrigin,
    "access-control-allow-methods": `${method}, OPTIONS`,
    "access-control-allow-headers": "Authorization, Content-Type, MCP-Protocol-Version",
    "access-control-max-age": "600",
    ...(allowOrigin === "*" ? {} : { vary: "Origin" }),
  };
  const guarded = catchOAuthErrors(handler);
  return [
    {
      method,
      path,
      async handler(request, params, context) {
        const response = await guarded(request, params, context);
        // `Vary` may already name Host (host-derived metadata): add to it, never replace it.
        for (const [name, value] of Object.entries(cors)) {
          if (name === "vary") response.headers.append(name, value);
          else response.headers.set(name, value);
        }
        return response;
      },
    },
    { method: "OPTIONS", path, handler: async () => new Response(null, { status: 204, headers: cors }) },
  ];
}
