import { sha256Hex } from "../crypto/random.js";
import type { DocSchema } from "./route-doc.js";
import type { Route } from "./router.js";

export interface PublicJsonRouteOptions {
  path: string;
  /** Moves whenever the document changes; the body and ETag are rebuilt only then. */
  revision(): number;
  /** The document; `origin` is the request's when `perOrigin` is set. */
  document(origin?: string): unknown;
  maxAgeSeconds: number;
  /**
   * For a document that names the request's origin (no `publicUrl` configured): built and cached
   * per origin, answered with `Vary: Host` so a shared cache keeps one copy per host.
   */
  perOrigin?: (request: Request) => string;
  /** Its OpenAPI operation (public, tag `catalog`), or `false` with the reason in `undocumented`; absent: not in the document. */
  openapi?: { operationId: string; summary: string; schema?: DocSchema } | false;
  undocumented?: string;
}

/** Hosts a document is kept for at once; more (a client cycling Host headers) start the cache afresh. */
const MAX_CACHED_ORIGINS = 32;

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
  const cache = new Map<string, { revision: number; body: string; etag: string }>();
  const doc = options.openapi;
  return {
    method: "GET",
    path: options.path,
    ...(doc === undefined
      ? {}
      : doc === false
        ? { openapi: false, ...(options.undocumented !== undefined && { undocumented: options.undocumented }) }
        : {
            openapi: {
              operationId: doc.operationId,
              summary: doc.summary,
              tags: ["catalog"],
              security: [],
              responses: {
                "200": {
                  description: "The document; cacheable (`Cache-Control: public`), with a strong ETag.",
                  schema: doc.schema ?? { type: "object" },
                  headers: {
                    ETag: { description: "The SHA-256 of the exact body.", schema: { type: "string" } },
                    "Cache-Control": {
                      description: `public, max-age=${options.maxAgeSeconds}`,
                      schema: { type: "string" },
                    },
                  },
                },
                "304": { description: "Not modified: `If-None-Match` named the current ETag." },
              },
              errors: [400],
            },
          }),
    async handler(request) {
      const revision = options.revision();
      const origin = options.perOrigin?.(request);
      let cached = cache.get(origin ?? "");
      if (cached?.revision !== revision) {
        const body = JSON.stringify(options.document(origin));
        cached = { revision, body, etag: `"${await sha256Hex(body)}"` };
        if (cache.size >= MAX_CACHED_ORIGINS) cache.clear();
        cache.set(origin ?? "", cached);
      }
      const headers = {
        "cache-control": `public, max-age=${options.maxAgeSeconds}`,
        etag: cached.etag,
        vary: origin === undefined ? "Accept-Encoding" : "Accept-Encoding, Host",
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
