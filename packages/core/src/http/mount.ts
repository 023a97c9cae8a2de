import { VitrinaError } from "../errors.js";

/** `createVitrina({ basePath, publicUrl })`: where the app mounted Vitrina and how clients reach it. */
export interface MountOptions {
  /** The path prefix Vitrina is mounted under (`/vitrina`). Default: none (the origin root). */
  basePath?: string;
  /** The origin clients use (`https://shop.example.com`), behind a proxy. Default: the request's origin. */
  publicUrl?: string;
}

/** The mount, resolved once: every URL Vitrina serves or prints derives from it. */
export interface Mount {
  /** `""` or `/prefix` (no trailing slash), percent-encoded as in a URL. */
  basePath: string;
  /** The configured `publicUrl` as an origin, or undefined when URLs follow each request. */
  publicOrigin: string | undefined;
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

function normalisePublicUrl(publicUrl: string | undefined): string | undefined {
  if (publicUrl === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw invalid("publicUrl", `must be an absolute URL such as https://shop.example.com (got "${publicUrl}")`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw invalid("publicUrl", `must use https or http (got "${url.protocol}")`);
  // One place for the prefix: a path here and a basePath would disagree about which one counts.
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "") {
    throw invalid("publicUrl", `is the origin only (got "${publicUrl}"); put the path prefix in basePath`);
  }
  return url.origin;
}

export function resolveMount(options: MountOptions): Mount {
  const basePath = normaliseBasePath(options.basePath);
  const publicOrigin = normalisePublicUrl(options.publicUrl);
  return {
    basePath,
    publicOrigin,
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
