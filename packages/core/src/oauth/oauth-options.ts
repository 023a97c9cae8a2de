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
  /** Refresh token lifetime, renewed on every rotation. Default 2592000 (30 days). */
  refreshTokenTtlSeconds?: number;
  /** Authorization code lifetime. Default 60. */
  codeTtlSeconds?: number;
  /** `Access-Control-Allow-Origin` of the metadata, register, token and revoke endpoints. Default `*`. */
  corsAllowOrigin?: string;
}

/**
 * What MCP clients may ask for: every scope of the MCP tools. Not `webhooks:*`: OAuth tokens are
 * bound to the MCP URL and are never accepted on the webhook API.
 */
export const DEFAULT_OAUTH_SCOPES: string[] = SCOPES.filter((scope) => !scope.startsWith("webhooks:"));
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600;
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const DEFAULT_CODE_TTL_SECONDS = 60;
