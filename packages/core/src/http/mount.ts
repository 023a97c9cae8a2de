import { VitrinaError } from "../errors.js";

/** `createVitrina({ basePath, publicUrl })`: where the app mounted Vitrina and how clients reach it. */
export interface MountOptions {
  /** The path prefix Vitrina is mounted under (`/vitrina`). Default: none (the origin root). */
  basePath?: string;
  /**
   * The address clients use, behind a proxy: an origin (`https://shop.example.com`) or an origin with
   * the mount's path (`https://shop.example.com/vitrina`, which then also sets `basePath`). Default:
   * the request's origin.
   */
  publicUrl?: string;
}

/** The mount, resolved once: every URL Vitrina serves or prints derives from it. */
export interface Mount {
  /** `""` or `/prefix` (no trailing slash), percent-encoded as in a URL. */
  basePath: string;
  /** The configured `publicUrl` as an origin, or undefined when URLs follow each request. */
  publicOrigin: string | undefined;
  /** `publicOrigin` + `basePath` (`https://shop.example.com/vitrina`), or undefined without `publicUrl`. */
  publicBaseUrl: string | undefined;
  /** `https://host[:port]` clients use for this request: `publicUrl`, else the request's origin. */
  origin(request: Request): string;
  /** The request's path with the prefix removed, for matching routes; a path without it is kept. */
  routePath(pathname: string): string;
}

function invalid(field: string, reason: string): VitrinaError {
  return new VitrinaError("invalid_argument", `createVitrina: ${field} ${reason}`, { reasons: [{ field, reason }] });
}

function normaliseBasePath(basePath: string | undefined): string {
  if (basePath === undefined) return "";
  if (!basePath.startsWith("/") || /[?#\s]/.test(basePath) || basePath.includes("//")) {
    throw invalid(
      "basePath",
      `must be a path starting with "/" without query, fragment, spaces or "//" (got "${basePath}")`,
    );
  }
  // In the form request paths arrive in (`/café` → `/caf%C3%A9`): matched against them, and printed in URLs.
  return new URL(basePath, "http://base-path.invalid").pathname.replace(/\/+$/, "");
}

/** `publicUrl` split into its origin and its path (`""` for an origin alone), the path normalised as `basePath` is. */
function splitPublicUrl(publicUrl: string | undefined): { origin: string; path: string } | undefined {
  if (publicUrl === undefined) return undefined;
  if (typeof publicUrl !== "string") throw invalid("publicUrl", `must be a string URL (got ${typeof publicUrl})`);
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw invalid("publicUrl", `must be an absolute URL such as https://shop.example.com (got "${publicUrl}")`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw invalid("publicUrl", `must use https or http (got "${url.protocol}")`);
  if (url.search !== "" || url.hash !== "")
    throw invalid("publicUrl", `must have no query or fragment (got "${publicUrl}")`);
  if (url.pathname.includes("//")) throw invalid("publicUrl", `must not contain "//" in its path (got "${publicUrl}")`);
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, "") };
}

/**
 * The prefix, from `basePath` or from `publicUrl`'s path (the form the CLI's config documents): both
 * name the same thing, so giving both is fine only when they agree.
 */
function resolveBasePath(options: MountOptions, publicUrl: { path: string } | undefined): string {
  if (options.basePath !== undefined && typeof options.basePath !== "string")
    throw invalid("basePath", `must be a string path such as "/vitrina" (got ${typeof options.basePath})`);
  const basePath = normaliseBasePath(options.basePath);
  if (publicUrl === undefined || publicUrl.path === "") return basePath;
  if (options.basePath === undefined) return publicUrl.path;
  if (publicUrl.path !== basePath)
    throw invalid(
      "publicUrl",
      `has the path "${publicUrl.path}" but basePath is "${basePath}"; give the prefix in one of them, or the same in both`,
    );
  return basePath;
}

export function resolveMount(options: MountOptions): Mount {
  const publicUrl = splitPublicUrl(options.publicUrl);
  const basePath = resolveBasePath(options, publicUrl);
  const publicOrigin = publicUrl?.origin;
  return {
    basePath,
    publicOrigin,
    publicBaseUrl: publicOrigin === undefined ? undefined : `${publicOrigin}${basePath}`,
    origin: (request) => publicOrigin ?? new URL(request.url).origin,
    // Hono's `app.mount` and Express's `app.use(prefix, …)` strip the prefix; Fastify, Next.js
    // and a plain server keep it. Both reach the same route.
    routePath: (pathname) => {
      if (basePath === "") return pathname;
      if (pathname === basePath) return "/";
      return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : pathname;
    },
  };
}
