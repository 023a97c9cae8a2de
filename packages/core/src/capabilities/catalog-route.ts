import { sha256Hex } from "../crypto/random.js";
import type { Route } from "../http/router.js";
import type { CatalogDocument } from "./catalog-document.js";

export interface CatalogRouteOptions {
  /** Moves whenever the registry changes; the body and ETag are rebuilt only then. */
  revision(): number;
  document(): CatalogDocument;
  maxAgeSeconds: number;
}

/** True when `If-None-Match` lists `etag` or is `*` (weak comparison, as RFC 9110 asks for this header). */
function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * `GET /v1/capabilities`: the public catalog, no authentication. The strong ETag hashes the exact
 * body, which only changes with the registry (`generatedAt` is the registry's last change), so
 * a revalidation answers 304 without a body.
 */
export function capabilityCatalogRoute(options: CatalogRouteOptions): Route {
  let cached: { revision: number; body: string; etag: string } | null = null;
  return {
    method: "GET",
    path: "/v1/capabilities",
    async handler(request) {
      const revision = options.revision();
      if (cached?.revision !== revision) {
        const body = JSON.stringify(options.document());
        cached = { revision, body, etag: `"${await sha256Hex(body)}"` };
      }
      const headers = {
        "cache-control": `public, max-age=${options.maxAgeSeconds}`,
        etag: cached.etag,
        vary: "Accept-Encoding",
      };
      if (matchesIfNoneMatch(request.headers.get("if-none-match"), cached.etag)) {
        return new Response(null, { status: 304, headers });
      }
      return new Response(cached.body, { status: 200, headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
    },
  };
}
