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
  context: OAuthContext;
}

/**
 * The OAuth 2.1 authorization server for MCP clients, on web-standard handlers: discovery
 * metadata, JWKS, `/register`, `/authorize`, `/token`, `/revoke`; plus the access-token check.
 */
export function createOAuthServer(deps: OAuthDependencies): OAuthServer {
  const context = createOAuthContext(deps);
  const { restPath } = deps;
  const restResource = (urls: OAuthUrls) => `${urls.apiBase}${restPath}`;
  return {
    routes: [
      ...oauthMetadataRoutes(context),
      ...clientRegistrationRoutes(context),
      ...authorizeRoutes(context),
      ...tokenRoutes(context),
    ],
    authenticate: oauthTokenAuthenticator(context),
    authenticateRest: restPath === undefined ? null : oauthTokenAuthenticator(context, restResource),
    restResourceMetadataUrl:
      restPath === undefined ? null : (request) => protectedResourceMetadataUrl(restResource(context.urls(request))),
    context,
  };
}

export function oauthRoutes(deps: OAuthDependencies): Route[] {
  return createOAuthServer(deps).routes;
}
