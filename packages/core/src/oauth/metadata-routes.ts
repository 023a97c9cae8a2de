import type { OAuthMetadata, OAuthProtectedResourceMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Route } from "../http/router.js";
import type { OAuthContext } from "./oauth-context.js";
import { oauthJson, withCors } from "./oauth-http.js";
import { authorizationServerMetadataUrl, protectedResourceMetadataUrl, type OAuthUrls } from "./oauth-urls.js";

export const TOKEN_ENDPOINT_AUTH_METHODS = ["none", "client_secret_post", "client_secret_basic"];

/**
 * Metadata built from the request's `Host` differs per Host, so no cache may keep it (a poisoned
 * Host must not reach other users); configured URLs are the same for everyone and may be cached.
 */
const cachingOf = (urls: OAuthUrls): Record<string, string> =>
  urls.fromHost ? { "cache-control": "no-store", vary: "Host" } : { "cache-control": "public, max-age=300" };

/** The path a metadata request is matched on: behind a proxy the request's origin is not the public one. */
const requestedPath = (request: Request) => new URL(request.url).pathname.replace(/\/+$/, "");
const pathOf = (url: string) => new URL(url).pathname;

/**
 * RFC 9728 §3.3: the metadata at `/.well-known/oauth-protected-resource<path>` must describe the
 * resource `<path>` names. Null when this server has no resource there (e.g. the root, when the
 * MCP URL is `/mcp`).
 */
function resourceNamedBy(request: Request, resources: string[]): string | null {
  const path = requestedPath(request);
  return resources.find((resource) => pathOf(protectedResourceMetadataUrl(resource)) === path) ?? null;
}

/** The 404 of a metadata URL that names nothing this server describes, pointing at the one it does. */
function notDescribedHere(request: Request, what: string, see: string, urls: OAuthUrls): Response {
  return oauthJson(
    {
      error: "not_found",
      error_description: `no ${what} is described at ${new URL(request.url).pathname}; see ${see}`,
    },
    404,
    cachingOf(urls),
  );
}

/**
 * Discovery: RFC 9728 protected-resource metadata (path-inserted form for `/mcp`, and the root
 * form), RFC 8414 authorization-server metadata, and the JWKS verifying access tokens.
 */
export function oauthMetadataRoutes(context: OAuthContext): Route[] {
  const protectedResource = async (request: Request) => {
    const urls = context.urls(request);
    const resource = resourceNamedBy(request, context.acceptedResources(urls));
    if (resource === null) return notDescribedHere(request, "protected resource", urls.resourceMetadata, urls);
    const body: OAuthProtectedResourceMetadata = {
      resource,
      authorization_servers: [urls.issuer],
      scopes_supported: context.scopesSupported,
      bearer_methods_supported: ["header"],
      resource_name: resource === urls.resource ? "Vitrina MCP server" : "Vitrina API",
    };
    return oauthJson(body, 200, cachingOf(urls));
  };
  const authorizationServer = async (request: Request) => {
    const urls = context.urls(request);
    // RFC 8414 §3.1: the issuer's path follows the well-known prefix. Another path names another
    // issuer (clients probe such URLs), so it gets a 404, never this issuer's document.
    const metadataUrl = authorizationServerMetadataUrl(urls.issuer);
    if (requestedPath(request) !== pathOf(metadataUrl))
      return notDescribedHere(request, "authorization server", metadataUrl, urls);
    const body: OAuthMetadata = {
      issuer: urls.issuer,
      authorization_endpoint: urls.endpoint("/authorize"),
      token_endpoint: urls.endpoint("/token"),
      registration_endpoint: urls.endpoint("/register"),
      revocation_endpoint: urls.endpoint("/revoke"),
      jwks_uri: urls.endpoint("/.well-known/jwks.json"),
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: TOKEN_ENDPOINT_AUTH_METHODS,
      revocation_endpoint_auth_methods_supported: TOKEN_ENDPOINT_AUTH_METHODS,
      scopes_supported: context.scopesSupported,
      authorization_response_iss_parameter_supported: true,
    };
    return oauthJson(body, 200, cachingOf(urls));
  };
  const jwks = async () => oauthJson(await context.keys.jwks(), 200, { "cache-control": "public, max-age=300" });
  const cors = (path: string, handler: (request: Request) => Promise<Response>) =>
    withCors(context.corsAllowOrigin, "GET", path, handler);
  return [
    ...cors("/.well-known/oauth-protected-resource", protectedResource),
    // Any path suffix: the metadata of `https://host/<path>` lives at `/.well-known/oauth-protected-resource/<path>`.
    ...cors("/.well-known/oauth-protected-resource/*", protectedResource),
    ...cors("/.well-known/oauth-authorization-server", authorizationServer),
    // The issuer's path, when it has one (a `basePath`): any other path is answered 404.
    ...cors("/.well-known/oauth-authorization-server/*", authorizationServer),
    ...cors("/.well-known/jwks.json", jwks),
  ];
}
