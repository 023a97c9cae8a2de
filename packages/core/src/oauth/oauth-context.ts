import type { Mount } from "../http/mount.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Storage } from "../ports/storage.js";
import {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_CODE_TTL_SECONDS,
  DEFAULT_GRANT_LIFETIME_SECONDS,
  DEFAULT_OAUTH_SCOPES,
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  type OAuthOptions,
} from "./oauth-options.js";
import { registrationLimiter } from "./registration-rate-limit.js";
import { resolveOAuthUrls, type OAuthUrls } from "./oauth-urls.js";
import { createSigningKeys, type SigningKeys } from "./signing-keys.js";

export interface OAuthDependencies {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  options: OAuthOptions;
  /** Where Vitrina is mounted (`basePath`, `publicUrl`); default the origin root of each request. */
  mount?: Pick<Mount, "origin" | "basePath" | "publicOrigin">;
  /**
   * The REST surface's path under the API base when it is on (`/v1/rest`): a second protected
   * resource tokens may be issued for (RFC 8707), with its own metadata (RFC 9728).
   */
  restPath?: string;
  /** The A2A endpoint's path under the API base when A2A is on (`/a2a`): a protected resource like REST's. */
  a2aPath?: string;
}

/** The OAuth options with their defaults applied, and what every endpoint shares. */
export interface OAuthContext {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  options: OAuthOptions;
  keys: SigningKeys;
  scopesSupported: string[];
  /** Scopes of a request that names none (before clamping to the client's). */
  defaultScopes: string[];
  ttlSeconds: { accessToken: number; refreshToken: number; code: number; grant: number; refreshReuse: number };
  /** Whether `/register` may take one more registration now (the in-process token bucket). */
  admitRegistration(request: Request): { admitted: true } | { admitted: false; retryAfterSeconds: number };
  corsAllowOrigin: string;
  urls(request: Request): OAuthUrls;
  /** The MCP resource and any additional ones: what `resource` may name. */
  acceptedResources(urls: OAuthUrls): string[];
  /** `clock.now()` shifted by `seconds`, as ISO 8601. */
  isoIn(seconds: number): string;
}

export function createOAuthContext(deps: OAuthDependencies): OAuthContext {
  const { options, clock } = deps;
  const scopesSupported = options.scopesSupported ?? DEFAULT_OAUTH_SCOPES;
  return {
    ...deps,
    keys: createSigningKeys(options.signingKey),
    scopesSupported,
    ttlSeconds: {
      accessToken: options.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
      refreshToken: options.refreshTokenTtlSeconds ?? DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
      code: options.codeTtlSeconds ?? DEFAULT_CODE_TTL_SECONDS,
      grant: options.grantLifetimeSeconds ?? DEFAULT_GRANT_LIFETIME_SECONDS,
      refreshReuse: options.refreshTokenReuseIntervalSeconds ?? 0,
    },
    defaultScopes: options.defaultScopes ?? scopesSupported.filter((scope) => scope.endsWith(":read")),
    admitRegistration: registrationLimiter(options.registration?.rateLimit, clock),
    corsAllowOrigin: options.corsAllowOrigin ?? "*",
    urls: (request) => resolveOAuthUrls(request, options, deps.mount),
    acceptedResources: (urls) => [
      urls.resource,
      ...(deps.restPath === undefined ? [] : [`${urls.apiBase}${deps.restPath}`]),
      ...(deps.a2aPath === undefined ? [] : [`${urls.apiBase}${deps.a2aPath}`]),
      ...(options.additionalResources ?? []),
    ],
    isoIn: (seconds) => new Date(clock.now().getTime() + seconds * 1000).toISOString(),
  };
}
