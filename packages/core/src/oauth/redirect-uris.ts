import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";

/** RFC 7591 §3.2.2 `invalid_redirect_uri` (the SDK has no class for it). */
export class InvalidRedirectUriError extends OAuthError {
  static override errorCode = "invalid_redirect_uri";
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
/** Schemes that run code, read local data or are not a redirect target at all: never a redirect URI. */
const REFUSED_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "blob:",
  "about:",
  "filesystem:",
  "ws:",
  "wss:",
  "ftp:",
  "mailto:",
  "tel:",
]);

const isLoopbackHttp = (url: URL) => url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);

/**
 * What a client may register: https anywhere; http only on a loopback host (native apps, RFC 8252
 * §7.3); for public clients also a private-use scheme (RFC 8252 §7.1, `cursor://…/callback`), which
 * only a native app on the user's device can receive. Never a fragment.
 */
export function checkRedirectUri(uri: string, client: { publicClient: boolean }): void {
  const url = URL.canParse(uri) ? new URL(uri) : null;
  if (url === null) throw new InvalidRedirectUriError(`redirect URI ${uri} is not an absolute URL`);
  if (url.hash !== "" || uri.includes("#"))
    throw new InvalidRedirectUriError(`redirect URI ${uri} must not have a fragment`);
  if (url.protocol === "https:" || isLoopbackHttp(url)) return;
  if (url.protocol === "http:")
    throw new InvalidRedirectUriError(
      `redirect URI ${uri} must use https, or http on a loopback host (127.0.0.1, [::1], localhost)`,
    );
  if (REFUSED_SCHEMES.has(url.protocol))
    throw new InvalidRedirectUriError(`redirect URI ${uri}: the ${url.protocol} scheme is never a redirect target`);
  if (!client.publicClient) {
    throw new InvalidRedirectUriError(
      `redirect URI ${uri}: private-use URI schemes are for native (public, token_endpoint_auth_method none) clients`,
    );
  }
}

const withoutPort = (url: URL) => {
  const copy = new URL(url.href);
  copy.port = "";
  return copy.href;
};

/**
 * Whether `presented` (at `/authorize`) is the registered URI: an exact string match (OAuth 2.1
 * §2.3.1), except that a loopback http URI matches on any port (RFC 8252 §7.3, OAuth 2.1 §8.4.2),
 * since native clients and the MCP Inspector listen on a free port chosen at each run. Both must be
 * in canonical form, so no normalisation (`/a/../cb`, `%2F`) can make a different URI match.
 */
export function redirectUriMatches(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  if (!URL.canParse(registered) || !URL.canParse(presented)) return false;
  const want = new URL(registered);
  const got = new URL(presented);
  if (!isLoopbackHttp(want) || !isLoopbackHttp(got) || got.href !== presented) return false;
  return withoutPort(want) === withoutPort(got);
}
