import type { OAuthMetadata, OAuthProtectedResourceMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Route } from "../http/router.js";
import type { OAuthContext } from "./oauth-context.js";
import { oauthJson, withCors } from "./oauth-http.js";

export const TOKEN_ENDPOINT_AUTH_METHODS = ["none", "client_secret_post", "client_secret_basic"];

/**
 * Discovery: RFC 9728 protected-resource metadata (path-inserted form for `/mcp`, and the root
 * form), RFC 8414 authorization-server metadata, and the JWKS verifying access tokens.
 */
export function oauthMetadataRoutes(context: OAuthContext): Route[] {
  const protectedResource = async (request: Request) => {
    const urls = context.urls(request);
    const body: OAuthProtectedResourceMetadata = {
      resource: urls.resource,
      authorization_servers: [urls.issuer],
      scopes_supported: context.scopesSupported,
      bearer_methods_supported: ["header"],
      resource_name: "Vitrina MCP server",
    };
    return oauthJson(body, 200, { "cache-control": "public, max-age=300" });
  };
  const authorizationServer = async (request: Request) => {
    const urls = context.urls(request);
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
    return oauthJson(body, 200, { "cache-control": "public, max-age=300" });
  };
  const jwks = async () => oauthJson(await context.keys.jwks(), 200, { "cache-control": "public, max-age=300" });
  const cors = (path: string, handler: (request: Request) => Promise<Response>) =>
    withCors(context.corsAllowOrigin, "GET", path, handler);
  return [
    ...cors("/.well-known/oauth-protected-resource", protectedResource),
    // Any path suffix: the metadata of `https://host/<path>` lives at `/.well-known/oauth-protected-resource/<path>`.
    ...cors("/.well-known/oauth-protected-resource/*", protectedResource),
    ...cors("/.well-known/oauth-authorization-server", authorizationServer),
    ...cors("/.well-known/oauth-authorization-server/*", authorizationServer),
    ...cors("/.well-known/jwks.json", jwks),
  ];
}
