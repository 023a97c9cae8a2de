import type { Mount } from "../http/mount.js";
import type { OAuthOptions } from "./oauth-options.js";

/** The addresses of one deployment, as clients must see them. */
export interface OAuthUrls {
  issuer: string;
  /** The MCP URL: the `resource` of the metadata and the `aud` of access tokens. */
  resource: string;
  /** RFC 9728 path-inserted metadata address of `resource`. */
  resourceMetadata: string;
  /** Where an authorization server endpoint (`/token`, …) lives under the issuer. */
  endpoint(path: string): string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * Resolves the configured URLs, or derives them from the mount (`createVitrina`'s `publicUrl`,
 * else the request's origin, plus `basePath`) when not configured, so a single-host deployment
 * needs no configuration and a proxied one sets `publicUrl`/`issuer`.
 */
export function resolveOAuthUrls(
  request: Request,
  options: Pick<OAuthOptions, "publicUrl" | "issuer">,
  mount: Pick<Mount, "origin" | "basePath"> = { origin: (r) => new URL(r.url).origin, basePath: "" },
): OAuthUrls {
  const base = `${mount.origin(request)}${mount.basePath}`;
  const issuer = trimSlash(options.issuer ?? base);
  const resource = options.publicUrl ?? `${base}/mcp`;
  return {
    issuer,
    resource,
    resourceMetadata: protectedResourceMetadataUrl(resource),
    endpoint: (path) => `${issuer}${path}`,
  };
}

/** `https://host/mcp` → `https://host/.well-known/oauth-protected-resource/mcp` (RFC 9728 §3.1). */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : trimSlash(url.pathname);
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/** Space-separated scope parameter → list; absent or blank → null. */
export function parseScopeParameter(scope: string | null | undefined): string[] | null {
  const list = (scope ?? "").split(" ").filter((s) => s !== "");
  return list.length === 0 ? null : [...new Set(list)];
}
