import type { Mount } from "../http/mount.js";
import type { OAuthOptions } from "./oauth-options.js";

/** The addresses of one deployment, as clients must see them. */
export interface OAuthUrls {
  issuer: string;
  /** True when issuer or resource came from the request's `Host` (no `publicUrl`/`issuer` set): never cache. */
  fromHost: boolean;
  /** The MCP URL: the `resource` of the metadata and the `aud` of access tokens. */
  resource: string;
  /** RFC 9728 path-inserted metadata address of `resource`. */
  resourceMetadata: string;
  /** Where the rest of the API is served (public origin or the request's, plus `basePath`): REST's resource is under it. */
  apiBase: string;
  /** Where an authorization server endpoint (`/token`, …) lives under the issuer. */
  endpoint(path: string): string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * Resolves the configured URLs, or derives them when not configured: the issuer from OAuth's
 * `publicUrl` origin, else from the mount (`createVitrina`'s `publicUrl`, else the request's origin,
 * plus `basePath`), so a single-host deployment needs no configuration and a proxied one sets
 * `publicUrl`/`issuer`. URLs taken from the request's `Host` are marked `fromHost` (never cached).
 */
export function resolveOAuthUrls(
  request: Request,
  options: Pick<OAuthOptions, "publicUrl" | "issuer">,
  mount: Pick<Mount, "origin" | "basePath" | "publicOrigin"> = {
    origin: (r) => new URL(r.url).origin,
    basePath: "",
    publicOrigin: undefined,
  },
): OAuthUrls {
  const base = `${mount.origin(request)}${mount.basePath}`;
  const configuredBase =
    options.publicUrl === undefined ? undefined : `${new URL(options.publicUrl).origin}${mount.basePath}`;
  const issuer = trimSlash(options.issuer ?? configuredBase ?? base);
  const resource = options.publicUrl ?? `${base}/mcp`;
  return {
    issuer,
    fromHost: options.publicUrl === undefined && mount.publicOrigin === undefined,
    resource,
    resourceMetadata: protectedResourceMetadataUrl(resource),
    apiBase: trimSlash(configuredBase ?? base),
    endpoint: (path) => `${issuer}${path}`,
  };
}

/** The well-known URI `name` of `url`, with `url`'s path inserted after it (RFC 9728 §3.1, RFC 8414 §3.1). */
function pathInsertedWellKnownUrl(name: string, url: string): string {
  const { origin, pathname } = new URL(url);
  return `${origin}/.well-known/${name}${trimSlash(pathname)}`;
}

/** `https://host/mcp` → `https://host/.well-known/oauth-protected-resource/mcp` (RFC 9728 §3.1). */
export const protectedResourceMetadataUrl = (resource: string): string =>
  pathInsertedWellKnownUrl("oauth-protected-resource", resource);

/** `https://host/vitrina` → `https://host/.well-known/oauth-authorization-server/vitrina` (RFC 8414 §3.1). */
export const authorizationServerMetadataUrl = (issuer: string): string =>
  pathInsertedWellKnownUrl("oauth-authorization-server", issuer);

/** Space-separated scope parameter → list; absent or blank → null. */
export function parseScopeParameter(scope: string | null | undefined): string[] | null {
  const list = (scope ?? "").split(" ").filter((s) => s !== "");
  return list.length === 0 ? null : [...new Set(list)];
}
