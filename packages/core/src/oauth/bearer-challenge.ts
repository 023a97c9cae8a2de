import { bearerToken, type Principal } from "../auth/principal.js";
import type { OAuthUrls } from "./oauth-urls.js";

/** An RFC 9110 quoted-string of `value`; quotes and backslashes are dropped rather than escaped. */
export const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

/**
 * The `WWW-Authenticate` of a refused MCP call (RFC 6750 §3, RFC 9728 §5.1). `resource_metadata`
 * is there whenever a metadata document is served (it is how MCP clients discover the
 * authorization server); without OAuth there is none, and a `realm` stands in, since RFC 6750
 * wants at least one parameter. `error="invalid_token"` only when a token was presented, since a
 * request without one just lacks authentication.
 */
export function unauthorizedChallenge(request: Request, urls: Partial<Pick<OAuthUrls, "resourceMetadata">>): string {
  const presented = bearerToken(request) !== null;
  const parts = [
    urls.resourceMetadata === undefined ? `realm="mcp"` : `resource_metadata=${quoted(urls.resourceMetadata)}`,
  ];
  if (presented)
    parts.push(
      `error="invalid_token"`,
      `error_description="The access token is invalid, expired, revoked or for another resource"`,
    );
  return `Bearer ${parts.join(", ")}`;
}

/** 403 challenge naming the missing scope(s), so a client can ask for a step-up authorization. */
export function insufficientScopeChallenge(
  urls: Pick<OAuthUrls, "resourceMetadata">,
  scopes: readonly string[],
): string {
  return `Bearer error="insufficient_scope", scope=${quoted(scopes.join(" "))}, resource_metadata=${quoted(urls.resourceMetadata)}`;
}

/**
 * The 403 challenge of an OAuth caller refused for missing scopes on a surface that serves metadata
 * (REST, `/mcp`): `insufficientScopeChallenge` with that surface's metadata URL, the one its 401
 * names, so the client can ask the authorization server for the scopes (step-up, RFC 6750 §3.1,
 * RFC 9728 §5.1). Null for any other caller: an API key's scopes are fixed when it is issued, so
 * there is nothing to step up to, and each surface keeps the challenge it gave before.
 */
export function stepUpChallenge(
  principal: Pick<Principal, "kind">,
  resourceMetadata: string | undefined,
  scopes: readonly string[],
): string | null {
  if (principal.kind !== "oauth" || resourceMetadata === undefined) return null;
  return insufficientScopeChallenge({ resourceMetadata }, scopes);
}

export function unauthorizedResponse(request: Request, urls: Pick<OAuthUrls, "resourceMetadata">): Response {
  return new Response(
    JSON.stringify({ error: "invalid_token", error_description: "Missing or invalid bearer token" }),
    {
      status: 401,
      headers: { "content-type": "application/json", "www-authenticate": unauthorizedChallenge(request, urls) },
    },
  );
}

export function insufficientScopeResponse(urls: Pick<OAuthUrls, "resourceMetadata">, scopes: string[]): Response {
  return new Response(
    JSON.stringify({ error: "insufficient_scope", error_description: `requires scope: ${scopes.join(" ")}` }),
    {
      status: 403,
      headers: { "content-type": "application/json", "www-authenticate": insufficientScopeChallenge(urls, scopes) },
    },
  );
}
