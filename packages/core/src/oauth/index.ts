export { createOAuthServer, oauthRoutes, type OAuthServer } from "./oauth-routes.js";
export type { OAuthDependencies, OAuthContext } from "./oauth-context.js";
export {
  DEFAULT_OAUTH_SCOPES,
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  DEFAULT_CODE_TTL_SECONDS,
  DEFAULT_GRANT_LIFETIME_SECONDS,
  DEFAULT_OAUTH_SCOPES_WHEN_NONE_REQUESTED,
  type OAuthOptions,
  type OAuthRegistrationOptions,
  type RegistrationRateLimit,
  type AuthorizeHook,
  type AuthorizationContext,
  type AuthorizationGrant,
  type OAuthSigningKeyOptions,
} from "./oauth-options.js";
export { createOAuthTokenAuthenticator, type OAuthTokenAuthenticatorOptions } from "./token-authenticator.js";
export {
  unauthorizedChallenge,
  insufficientScopeChallenge,
  unauthorizedResponse,
  insufficientScopeResponse,
} from "./bearer-challenge.js";
export { resolveOAuthUrls, protectedResourceMetadataUrl, type OAuthUrls } from "./oauth-urls.js";
export { createSigningKeys, generateOAuthSigningKey, type SigningKeys, type SigningAlgorithm } from "./signing-keys.js";
export { signAccessToken, verifyAccessToken, type AccessTokenClaims } from "./access-tokens.js";
export { s256Challenge } from "./pkce.js";
export {
  purgeExpiredOAuthRecords,
  DEFAULT_UNAPPROVED_CLIENT_RETENTION_SECONDS,
  type PurgeExpiredOAuthRecordsOptions,
} from "./purge-records.js";
export { DEFAULT_REGISTRATION_RATE_LIMIT } from "./registration-rate-limit.js";
export { DEFAULT_REGISTRATION_MAX_BODY_BYTES, DEFAULT_REGISTRATION_MAX_REDIRECT_URIS } from "./client-registration.js";
