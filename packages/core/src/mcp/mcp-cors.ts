/**
 * Browser origins on `/mcp`, and CORS for the allowed ones. A browser client sends a preflight
 * first (the `Authorization` header is not CORS-safelisted), and must be allowed to read
 * `WWW-Authenticate` to find the OAuth metadata after a 401.
 */
const ALLOWED_HEADERS = "authorization, content-type, accept, mcp-protocol-version, x-request-id";
// x-request-id: a browser client can quote it in a bug report, and operators find it in the logs.
const EXPOSED_HEADERS = "www-authenticate, mcp-protocol-version, x-request-id";

/** Whether a request carrying this `Origin` header may call `/mcp`. */
export type OriginPolicy = (request: Request, origin: string) => boolean;

/** A host no DNS-rebinding page can claim: a rebinding page's own URL, and so its Host header, carries the attacker's DNS name. */
function isRebindingProofHost(hostname: string): boolean {
  return hostname === "localhost" || hostname.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * `mcp.allowedOrigins` plus the server's own origin: `publicBaseUrl`'s when configured, else the
 * request's own `scheme://host[:port]` when that host is `localhost` or an IP address. A DNS name
 * in Host is not trusted as "own": a page at `http://attacker.example:8787` whose name the
 * attacker re-points at 127.0.0.1 sends a Host and an Origin that agree (DNS rebinding).
 */
export function originPolicy(
  allowedOrigins: readonly string[] | undefined,
  publicBaseUrl: string | undefined,
): OriginPolicy {
  const allowed = new Set(allowedOrigins ?? []);
  const publicOrigin = publicBaseUrl === undefined ? null : new URL(publicBaseUrl).origin;
  return (request, origin) => {
    if (allowed.has(origin)) return true;
    if (publicOrigin !== null) return origin === publicOrigin;
    const own = new URL(request.url);
    return isRebindingProofHost(own.hostname) && origin === own.origin;
  };
}

export function corsHeaders(origin: string): Record<string, string> {
  return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS, vary: "Origin" };
}

/** `OPTIONS /mcp`: 204 for an allowed origin, 403 otherwise (no CORS headers, so the browser blocks). */
export function preflightResponse(request: Request, isAllowedOrigin: OriginPolicy): Response {
  const origin = request.headers.get("origin");
  if (origin === null || !isAllowedOrigin(request, origin)) return new Response(null, { status: 403 });
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(origin),
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": "600",
    },
  });
}

/** Adds the CORS headers for an allowed origin; a refused one gets none, so the browser hides the answer. */
export function withCors(request: Request, response: Response, isAllowedOrigin: OriginPolicy): Response {
  const origin = request.headers.get("origin");
  if (origin === null || !isAllowedOrigin(request, origin)) return response;
  for (const [name, value] of Object.entries(corsHeaders(origin))) response.headers.set(name, value);
  return response;
}
