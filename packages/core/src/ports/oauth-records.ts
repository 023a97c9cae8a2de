/**
 * What the OAuth 2.1 authorization server keeps. Only SHA-256 hashes (hex) of client secrets,
 * authorization codes and refresh tokens are stored: a leaked database grants nothing. Access
 * tokens are signed JWTs and are not stored at all; they name their token family (`fid`), so
 * revoking the family stops them too.
 */

export type OAuthClientAuthMethod = "none" | "client_secret_post" | "client_secret_basic";

/** A client registered through `POST /register` (RFC 7591). */
export interface OAuthClientRecord {
  /** The public `client_id`. */
  id: string;
  /** SHA-256 hex of the client secret; null for public clients (`token_endpoint_auth_method: none`). */
  secretHash: string | null;
  tokenEndpointAuthMethod: OAuthClientAuthMethod;
  redirectUris: string[];
  /** The scopes this client may ask for; null means any supported scope. */
  scopes: string[] | null;
  /** The registered metadata as the client sent it (client_name, client_uri, …), echoed back. */
  metadata: Record<string, unknown>;
  createdAt: string;
  /**
   * When a user first approved this client (the first authorization code issued to it); null
   * until then. Until a user has approved it, `/authorize` never redirects an invalid request to
   * it (no open redirector), and an unapproved client is deleted by `purgeExpiredOAuthRecords`.
   */
  approvedAt: string | null;
}

/** An authorization code between `/authorize` and `/token`: single use, short-lived. */
export interface OAuthAuthorizationCodeRecord {
  codeHash: string;
  clientId: string;
  redirectUri: string;
  /** PKCE S256 challenge: base64url(SHA-256(code_verifier)). */
  codeChallenge: string;
  /** RFC 8707 resource the tokens will be audience-bound to. */
  resource: string;
  scopes: string[];
  userId: string;
  workspaceId: string;
  /** Chosen up front, so a replayed code can revoke the tokens issued from its first use. */
  familyId: string;
  expiresAt: string;
  createdAt: string;
  usedAt: string | null;
}

/** One grant: every access and refresh token issued from one authorization code. */
export interface OAuthTokenFamilyRecord {
  id: string;
  clientId: string;
  userId: string;
  workspaceId: string;
  scopes: string[];
  resource: string;
  createdAt: string;
  /** The grant's absolute end (`grantLifetimeSeconds` after the authorization), however often it is refreshed. */
  expiresAt: string;
  revokedAt: string | null;
}

/** A refresh token; rotated on every use, so each one is valid exactly once. */
export interface OAuthRefreshTokenRecord {
  tokenHash: string;
  familyId: string;
  /**
   * What a refresh with this token may ask for: the grant's scopes, handed unchanged from token to
   * successor (a refresh's `scope=` narrows only its access token, RFC 6749 §6). A token stored by
   * an older version may hold a narrower set.
   */
  scopes: string[];
  expiresAt: string;
  createdAt: string;
  usedAt: string | null;
}

/** What `OAuthTokenRepository.purgeExpired` deletes (ISO 8601 instants). */
export interface OAuthPurgeCutoffs {
  /** Codes, refresh tokens (spent or not) and grants that expired before this; grants revoked before this. */
  now: string;
  /** Clients registered before this that no user ever approved (`approvedAt` null). */
  unapprovedClientsCreatedBefore: string;
  /**
   * At most this many codes, grants, clients and refresh tokens past their own expiry are deleted
   * by one call (each kind counted apart); a deleted grant's refresh tokens go with it whatever
   * their number. Omitted: no bound. Callers with a large backlog call again while any count
   * reaches the bound, so no statement runs long enough to hit a statement timeout.
   */
  limit?: number;
}

/** How many rows `purgeExpired` deleted, per kind (refresh tokens include those of deleted grants). */
export interface OAuthPurgeCounts {
  codes: number;
  grants: number;
  refreshTokens: number;
  clients: number;
}
