import type { Clock } from "../ports/clock.js";
import type { OAuthTokenRepository } from "../ports/storage.js";
import { verifyAccessToken } from "./access-tokens.js";
import type { OAuthContext } from "./oauth-context.js";
import type { OAuthUrls } from "./oauth-urls.js";
import type { SigningKeys } from "./signing-keys.js";

/**
 * Who is calling. The same shape as an API key's principal, so the MCP server never knows which
 * kind of bearer token it was given: `keyId` is the API key id, or here the OAuth grant id.
 */
export interface OAuthPrincipal {
  /** Tells an OAuth principal from an API key's (`kind: "api_key"`). */
  kind: "oauth";
  workspaceId: string;
  keyId: string;
  scopes: string[];
  /** The signed-in user the token acts for. */
  subject: string;
  clientId?: string;
}

/** Resolves a request to a principal, or null; the seam API keys and OAuth tokens share. */
export type BearerAuthenticator = (request: Request) => Promise<OAuthPrincipal | null>;

/** The token after `Bearer ` (scheme case-insensitive, RFC 7235), or null. */
export function bearerTokenOf(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header === null ? null : /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

export interface OAuthTokenAuthenticatorOptions {
  keys: SigningKeys;
  tokens: Pick<OAuthTokenRepository, "getFamily">;
  clock: Clock;
  /** Issuer and resource (the MCP URL, the required audience) for this request. */
  urls(request: Request): OAuthUrls;
}

/**
 * Checks an OAuth access token: signature, type, issuer, expiry, audience (the MCP resource,
 * RFC 8707) and that its grant was not revoked. Anything else, including API keys (not JWTs),
 * is `null`, so this composes with other authenticators: `firstAuthenticated(apiKeys, oauth)`.
 *
 * ```ts
 * const authenticate = createOAuthTokenAuthenticator(vitrina.oauth!.authenticatorOptions);
 * ```
 */
export function createOAuthTokenAuthenticator(options: OAuthTokenAuthenticatorOptions): BearerAuthenticator {
  return async (request) => {
    const token = bearerTokenOf(request);
    if (token === null || !looksLikeJwt(token)) return null;
    const urls = options.urls(request);
    const claims = await verifyAccessToken(options.keys, options.clock, token, { issuer: urls.issuer, audience: urls.resource });
    if (claims === null) return null;
    // One primary-key read per call buys immediate revocation (refresh reuse, RFC 7009).
    const family = await options.tokens.getFamily(claims.familyId);
    if (family === null || family.revokedAt !== null) return null;
    return { kind: "oauth", workspaceId: claims.workspaceId, keyId: claims.familyId, scopes: claims.scopes, subject: claims.userId, clientId: claims.clientId };
  };
}

/** The authenticator over a running OAuth server's keys, storage and URLs. */
export function oauthTokenAuthenticator(context: OAuthContext): BearerAuthenticator {
  return createOAuthTokenAuthenticator({ keys: context.keys, tokens: context.storage.oauthTokens, clock: context.clock, urls: context.urls });
}

/** Tries each authenticator in turn (e.g. API keys, then OAuth access tokens); the first principal wins. */
export function firstAuthenticated(...authenticators: BearerAuthenticator[]): BearerAuthenticator {
  return async (request) => {
    for (const authenticate of authenticators) {
      const principal = await authenticate(request);
      if (principal !== null) return principal;
    }
    return null;
  };
}
