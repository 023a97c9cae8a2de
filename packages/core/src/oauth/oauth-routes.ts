import type { Route } from "../http/router.js";
import { authorizeRoutes } from "./authorize-route.js";
import { clientRegistrationRoutes } from "./client-registration.js";
import { oauthMetadataRoutes } from "./metadata-routes.js";
import { createOAuthContext, type OAuthContext, type OAuthDependencies } from "./oauth-context.js";
import type { Authenticator } from "../auth/principal.js";
import { oauthTokenAuthenticator } from "./token-authenticator.js";
import { protectedResourceMetadataUrl, type OAuthUrls } from "./oauth-urls.js";
import { tokenRoutes } from "./token-routes.js";

export interface OAuthServer {
  routes: Route[];
  /** Resolves OAuth access tokens to principals; plug it into the MCP authenticator seam. */
  authenticate: Authenticator;
  /** Resolves access tokens issued for the REST resource (`restPath` set); null when REST is off. */
  authenticateRest: Authenticator | null;
  /** The REST resource's RFC 9728 metadata address, for its 401 challenge; null when REST is off. */
  restResourceMetadataUrl: ((request: Request) => string) | null;
  /** Resolves access tokens issued for the A2A resource (`a2aPath` set); null when A2A is off. */
  authenticateA2a: Authenticator | null;
  /** The A2A resource's RFC 9728 metadata address, for its 401 challenge; null when A2A is off. */
  a2aResourceMetadataUrl: ((request: Request) => string) | null;
  context: OAuthContext;
}

/**
 * The OAuth 2.1 authorization server for MCP clients, on web-standard handlers: discovery
 * metadata, JWKS, `/register`, `/authorize`, `/token`, `/revoke`; plus the access-token check.
 */
export function createOAuthServer(deps: OAuthDependencies): OAuthServer {
  const context = createOAuthContext(deps);
  // REST and A2A are protected resources of their own beside /mcp: a token names one (RFC 8707),
  // and each surface accepts its own only.
  const surface = (path: string | undefined) => {
    if (path === undefined) return { authenticate: null, metadataUrl: null };
    const resource = (urls: OAuthUrls) => `${urls.apiBase}${path}`;
    return {
      authenticate: oauthTokenAuthenticator(context, resource),
      metadataUrl: (request: Request) => protectedResourceMetadataUrl(resource(context.urls(request))),
    };
  };
  const rest = surface(deps.restPath);
  const a2a = surface(deps.a2aPath);
  return {
    routes: [
      ...oauthMetadataRoutes(context),
      ...clientRegistrationRoutes(context),
      ...authorizeRoutes(context),
      ...tokenRoutes(context),
    ],
    authenticate: oauthTokenAuthenticator(context),
    authenticateRest: rest.authenticate,
    restResourceMetadataUrl: rest.metadataUrl,
    authenticateA2a: a2a.authenticate,
    a2aResourceMetadataUrl: a2a.metadataUrl,
    context,
  };
}

export function oauthRoutes(deps: OAuthDependencies): Route[] {
  return createOAuthServer(deps).routes;
}
