import { bearerToken, readsHeadersOnly, type Authenticator, type OAuthPrincipal } from "../auth/principal.js";
import type { Clock } from "../ports/clock.js";
import type { OAuthTokenRepository } from "../ports/storage.js";
import { verifyAccessToken } from "./access-tokens.js";
import type { OAuthContext } from "./oauth-context.js";
import type { OAuthUrls } from "./oauth-urls.js";
import type { SigningKeys } from "./signing-keys.js";

const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

export interface OAuthTokenAuthenticatorOptions {
  keys: SigningKeys;
  tokens: Pick<OAuthTokenRepository, "getFamily">;
  clock: Clock;
  /** Issuer and resource (the MCP URL, the required audience) for this request. */
  urls(request: Request): OAuthUrls;
  /** The audience this authenticator accepts; default the MCP resource (`urls.resource`). */
  audience?: (urls: OAuthUrls) => string;
}

/**
 * Checks an OAuth access token: signature, type, issuer, expiry, audience (the MCP resource,
 * RFC 8707) and that its grant was not revoked. Anything else, including API keys (not JWTs),
 * is `null`, so this composes with API keys: `firstOf(vitrina.apiKeys.authenticator, oauth)`.
 *
 * ```ts
 * const authenticate = createOAuthTokenAuthenticator(vitrina.oauth!.authenticatorOptions);
 * ```
 */
export function createOAuthTokenAuthenticator(options: OAuthTokenAuthenticatorOptions): Authenticator {
  return async (request) => {
    const token = bearerToken(request);
    if (token === null || !looksLikeJwt(token)) return null;
    const urls = options.urls(request);
    const claims = await verifyAccessToken(options.keys, options.clock, token, {
      issuer: urls.issuer,
      audience: options.audience?.(urls) ?? urls.resource,
    });
    if (claims === null) return null;
    // One primary-key read per call buys immediate revocation (refresh reuse, RFC 7009).
    const family = await options.tokens.getFamily(claims.familyId);
    if (family === null || family.revokedAt !== null) return null;
    // The grant record is the authority on whose token this is; a token that disagrees with its
    // own grant is refused rather than believed. Scopes: the token's (a refresh may narrow), within the grant's.
    if (
      family.workspaceId !== claims.workspaceId ||
      family.userId !== claims.userId ||
      family.clientId !== claims.clientId
    )
      return null;
    const principal: OAuthPrincipal = {
      kind: "oauth",
      workspaceId: family.workspaceId,
      keyId: family.id,
      scopes: claims.scopes.filter((scope) => family.scopes.includes(scope)),
      subject: family.userId,
      clientId: family.clientId,
    };
    return principal;
  };
}

/**
 * The authenticator over a running OAuth server's keys, storage and URLs. Those URLs are core's own
 * (`context.urls` reads the request's URL and headers only), so unlike one built with an embedder's
 * `urls`, it may be handed a binding's direct request.
 */
export function oauthTokenAuthenticator(context: OAuthContext, audience?: (urls: OAuthUrls) => string): Authenticator {
  return readsHeadersOnly(
    createOAuthTokenAuthenticator({
      keys: context.keys,
      tokens: context.storage.oauthTokens,
      clock: context.clock,
      urls: context.urls,
      ...(audience !== undefined && { audience }),
    }),
  );
}
