import { firstOf, type Authenticator } from "./principal.js";

/** The OAuth server's token checks, one per protected resource (structural: auth knows no surface). */
interface OAuthTokenCheck {
  authenticate: Authenticator;
  authenticateRest: Authenticator | null;
  authenticateA2a: Authenticator | null;
}

/** Which credentials each surface takes, worked out once for the composition root. */
export interface CredentialRouting {
  /** API keys, then the embedder's `authenticators`: the webhook and admin APIs, and the default elsewhere. */
  authenticate: Authenticator;
  /** `/mcp`: `mcp.authenticate` (default `authenticate`), then OAuth tokens for the MCP resource. */
  authenticateMcp: Authenticator;
  /** REST: `authenticate`, then OAuth tokens issued for the REST resource (never the MCP one's). */
  authenticateRest: Authenticator;
  /** `/a2a`: `authenticate`, then OAuth tokens issued for the A2A resource. */
  authenticateA2a: Authenticator;
  /**
   * With OAuth on, the surfaces that take its tokens, in words ("the MCP endpoint and the REST
   * surface"): the API-key-only routes tell a caller who sent a JWT where it works. Undefined without OAuth.
   */
  oauthElsewhere: string | undefined;
}

/**
 * OAuth access tokens are audience-bound to one resource (RFC 8707): each surface accepts the
 * tokens issued for it and API keys, and the webhook and admin APIs accept API keys only.
 */
export function routeCredentials(deps: {
  apiKeys: Authenticator;
  authenticators: Authenticator[] | undefined;
  mcpAuthenticate: Authenticator | undefined;
  oauth: OAuthTokenCheck | null;
  surfaces: { rest: boolean; a2a: boolean };
}): CredentialRouting {
  const { oauth } = deps;
  const authenticate = firstOf(deps.apiKeys, ...(deps.authenticators ?? []));
  const mcpCredentials = deps.mcpAuthenticate ?? authenticate;
  const withOAuth = (base: Authenticator, tokens: Authenticator | null | undefined) =>
    tokens ? firstOf(base, tokens) : base;
  const oauthSurfaces = [
    "the MCP endpoint",
    ...(deps.surfaces.rest ? ["the REST surface"] : []),
    ...(deps.surfaces.a2a ? ["the A2A endpoint"] : []),
  ];
  return {
    authenticate,
    authenticateMcp: withOAuth(mcpCredentials, oauth?.authenticate),
    authenticateRest: withOAuth(authenticate, oauth?.authenticateRest),
    authenticateA2a: withOAuth(authenticate, oauth?.authenticateA2a),
    oauthElsewhere: oauth === null ? undefined : oauthSurfaces.join(", ").replace(/, ([^,]+)$/, " and $1"),
  };
}
