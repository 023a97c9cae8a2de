import type { Mount } from "../http/mount.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Storage } from "../ports/storage.js";
import {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_CODE_TTL_SECONDS,
  DEFAULT_OAUTH_SCOPES,
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  type OAuthOptions,
} from "./oauth-options.js";
import { resolveOAuthUrls, type OAuthUrls } from "./oauth-urls.js";
import { createSigningKeys, type SigningKeys } from "./signing-keys.js";

export interface OAuthDependencies {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  options: OAuthOptions;
  /** Where Vitrina is mounted (`basePath`, `publicUrl`); default the origin root of each request. */
  mount?: Pick<Mount, "origin" | "basePath">;
}

/** The OAuth options with their defaults applied, and what every endpoint shares. */
export interface OAuthContext {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  options: OAuthOptions;
  keys: SigningKeys;
  scopesSupported: string[];
  ttlSeconds: { accessToken: number; refreshToken: number; code: number };
  corsAllowOrigin: string;
  urls(request: Request): OAuthUrls;
  /** The MCP resource and any additional ones: what `resource` may name. */
  acceptedResources(urls: OAuthUrls): string[];
  /** `clock.now()` shifted by `seconds`, as ISO 8601. */
  isoIn(seconds: number): string;
}

export function createOAuthContext(deps: OAuthDependencies): OAuthContext {
  const { options, clock } = deps;
  return {
    ...deps,
    keys: createSigningKeys(options.signingKey),
    scopesSupported: options.scopesSupported ?? DEFAULT_OAUTH_SCOPES,
    ttlSeconds: {
      accessToken: options.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
      refreshToken: options.refreshTokenTtlSeconds ?? DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
      code: options.codeTtlSeconds ?? DEFAULT_CODE_TTL_SECONDS,
    },
    corsAllowOrigin: options.corsAllowOrigin ?? "*",
    urls: (request) => resolveOAuthUrls(request, options, deps.mount),
    acceptedResources: (urls) => [urls.resource, ...(options.additionalResources ?? [])],
    isoIn: (seconds) => new Date(clock.now().getTime() + seconds * 1000).toISOString(),
  };
}
