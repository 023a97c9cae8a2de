import { sha256Hex } from "../crypto/random.js";
import type { Route } from "./router.js";

export interface PublicJsonRouteOptions {
  path: string;
  /** Moves whenever the document changes; the body and ETag are rebuilt only then. */
  revision(): number;
  document(): unknown;
  maxAgeSeconds: number;
}

/** True when `If-None-Match` lists `etag` or is `*` (weak comparison, as RFC 9110 asks for this header). */
function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * A public, cacheable JSON document (the capability catalog, the event schemas): no
 * authentication, `Cache-Control: public`, and a strong ETag hashing the exact body, so a
 * revalidation answers 304 without a body. The body is rebuilt only when `revision()` moves.
 */
export function publicJsonRoute(options: PublicJsonRouteOptions): Route {
  let cached: { revision: number; body: string; etag: string } | null = null;
  return {
    method: "GET",
    path: options.path,
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
      return new Response(cached.body, {
        status: 200,
        headers: { ...headers, "content-type": "application/json; charset=utf-8" },
      });
    },
  };
}
