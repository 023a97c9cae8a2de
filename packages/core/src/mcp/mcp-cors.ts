/**
 * CORS for the browser origins in `mcp.allowedOrigins`. A browser client sends a preflight first
 * (the `Authorization` header is not CORS-safelisted), and must be allowed to read
 * `WWW-Authenticate` to find the OAuth metadata after a 401.
 */
const ALLOWED_HEADERS = "authorization, content-type, accept, mcp-protocol-version";
const EXPOSED_HEADERS = "www-authenticate, mcp-protocol-version";

export function corsHeaders(origin: string): Record<string, string> {
  return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS, vary: "Origin" };
}

/** `OPTIONS /mcp`: 204 for an allowed origin, 403 otherwise (no CORS headers, so the browser blocks). */
export function preflightResponse(request: Request, allowedOrigins: ReadonlySet<string>): Response {
  const origin = request.headers.get("origin");
  if (origin === null || !allowedOrigins.has(origin)) return new Response(null, { status: 403 });
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
export function withCors(request: Request, response: Response, allowedOrigins: ReadonlySet<string>): Response {
  const origin = request.headers.get("origin");
  if (origin === null || !allowedOrigins.has(origin)) return response;
  for (const [name, value] of Object.entries(corsHeaders(origin))) response.headers.set(name, value);
  return response;
}
