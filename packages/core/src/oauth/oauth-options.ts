import type { JWK } from "jose";
import { SCOPES } from "../auth/scopes.js";
import type { OAuthClientRecord } from "../ports/oauth-records.js";

/** What the embedder's `authorize` hook decided: who signed in, for which workspace, and what they granted. */
export interface AuthorizationGrant {
  userId: string;
  workspaceId: string;
  /** Clamped to the requested scopes: a consent page can narrow a request, never widen it. */
  grantedScopes: string[];
}

export interface AuthorizationContext {
  client: OAuthClientRecord;
  /** The scopes the client asked for, already checked against what it may ask for. */
  scopes: string[];
  /** The RFC 8707 resource the tokens will be bound to (the MCP URL). */
  resource: string;
  /** The redirect back to the client with `error=access_denied`, for a "Deny" button. */
  deny(): Response;
}

/**
 * Who the user is and whether they consent is the embedder's call: return the grant, or a
 * Response (a redirect to your login, or your consent page). The hook is called again on the
 * same `/authorize` URL once the user comes back (your page can POST its decision there).
 */
export type AuthorizeHook = (request: Request, context: AuthorizationContext) => Promise<AuthorizationGrant | Response>;

/** A private signing key (ES256 on P-256, or EdDSA on Ed25519) as a JWK; `kid` defaults to its thumbprint. */
export interface OAuthSigningKeyOptions {
  privateJwk: JWK;
  /** Public JWKs still accepted for verification, e.g. the key before the last rotation. */
  previousPublicJwks?: JWK[];
}

/** `createVitrina({ oauth: { … } })`: the OAuth 2.1 authorization server for MCP clients. */
export interface OAuthOptions {
  authorize: AuthorizeHook;
  /**
   * The exact MCP URL clients connect to, the audience of every access token. Default: the
   * request's origin + `/mcp`. Set it behind a proxy or when the server has several host names.
   */
  publicUrl?: string;
  /** The authorization server's issuer URL. Default: the request's origin. */
  issuer?: string;
  /** Other resources (RFC 8707) this server may issue tokens for, besides the MCP URL. */
  additionalResources?: string[];
  /** Scopes clients may ask for. Default: the MCP tools' scopes (`DEFAULT_OAUTH_SCOPES`). */
  scopesSupported?: string[];
  /**
   * The token signing key. Default: an ES256 key pair generated at startup and held in memory,
   * so tokens die with the process and other processes can't verify them: a multi-process or
   * restarting deployment must supply a key (see `generateOAuthSigningKey`).
   */
  signingKey?: OAuthSigningKeyOptions;
  /** Access token lifetime. Default 3600 (1 hour). */
  accessTokenTtlSeconds?: number;
  /** Refresh token lifetime, renewed on every rotation (never past the grant's end). Default 2592000 (30 days). */
  refreshTokenTtlSeconds?: number;
  /**
   * Absolute lifetime of a grant (every token from one authorization), however often it is
   * refreshed: after it the user must authorize again. Default 7776000 (90 days).
   */
  grantLifetimeSeconds?: number;
  /**
   * How long a spent refresh token may be presented again and still get new tokens instead of
   * revoking the grant, for a client whose refresh response was lost. Default 0 (any reuse revokes).
   */
  refreshTokenReuseIntervalSeconds?: number;
  /**
   * What a client that sends no `scope` gets (clamped to what it may ask for). Default: the read
   * scopes of `scopesSupported` (`DEFAULT_OAUTH_SCOPES_WHEN_NONE_REQUESTED`): writes must be asked for.
   */
  defaultScopes?: string[];
  /** Limits of `POST /register` (open to anyone, so bounded). */
  registration?: OAuthRegistrationOptions;
  /** Authorization code lifetime. Default 60. */
  codeTtlSeconds?: number;
  /** `Access-Control-Allow-Origin` of the metadata, register, token and revoke endpoints. Default `*`. */
  corsAllowOrigin?: string;
}

/** Size and rate limits of dynamic client registration. */
export interface OAuthRegistrationOptions {
  /** Largest accepted metadata body. Default 16384 bytes. */
  maxBodyBytes?: number;
  /** Most `redirect_uris` one client may register. Default 10. */
  maxRedirectUris?: number;
  /**
   * A token bucket per key, held in this process's memory (each process counts on its own).
   * Default `{ burst: 20, perHour: 60 }` over one global bucket; `false` turns it off.
   */
  rateLimit?: RegistrationRateLimit | false;
}

export interface RegistrationRateLimit {
  /** Registrations allowed at once. */
  burst: number;
  /** Refill rate of the bucket. */
  perHour: number;
  /**
   * The bucket a request counts against. Default: one global bucket (a web Request carries no
   * client IP). Behind a proxy you trust: `(request) => request.headers.get("x-forwarded-for") ?? "?"`.
   */
  key?: (request: Request) => string;
}

/**
 * What MCP clients may ask for: every scope of the MCP tools. Not `webhooks:*`: OAuth tokens are
 * bound to the MCP URL and are never accepted on the webhook API.
 */
export const DEFAULT_OAUTH_SCOPES: string[] = SCOPES.filter(
  (scope) => !scope.startsWith("webhooks:") && !scope.startsWith("admin:"),
);
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600;
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const DEFAULT_CODE_TTL_SECONDS = 60;
export const DEFAULT_GRANT_LIFETIME_SECONDS = 90 * 24 * 3600;
/** Scopes granted when a client asks for none: reads only. */
export const DEFAULT_OAUTH_SCOPES_WHEN_NONE_REQUESTED: string[] = DEFAULT_OAUTH_SCOPES.filter((scope) =>
  scope.endsWith(":read"),
);
