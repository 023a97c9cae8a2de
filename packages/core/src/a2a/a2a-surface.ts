import type { Authenticator } from "../auth/principal.js";
import type { CapabilityService } from "../capabilities/capability-service.js";
import type { Mount } from "../http/mount.js";
import { publicJsonRoute } from "../http/public-json-route.js";
import type { Surface } from "../surface.js";
import type { OAuthServer } from "../oauth/oauth-routes.js";
import { authorizationServerMetadataUrl } from "../oauth/oauth-urls.js";
import type { IdGenerator } from "../ports/ids.js";
import { SCOPE_VERSION } from "../telemetry/tracing.js";
import { A2A_PATH, AGENT_CARD_PATH, type A2aOptions } from "./a2a-options.js";
import { a2aRoutes } from "./a2a-route.js";
import { buildAgentCard } from "./agent-card.js";

export interface A2aSurfaceDependencies {
  options: A2aOptions;
  capabilities: CapabilityService;
  /** API keys, the embedder's authenticators and OAuth tokens for the A2A resource (see `routeCredentials`). */
  authenticate: Authenticator;
  ids: IdGenerator;
  mount: Mount;
  oauth: OAuthServer | null;
}

const DEFAULT_DESCRIPTION =
  "Commercial operations over A2A: each skill is one capability of the catalog (catalog search, contacts, conversations, stock), called with one JSON data part and answered with one.";

/**
 * The A2A surface when `a2a.enabled`: the public agent card at the origin's well-known path, and
 * `POST /a2a` under the mount. Its routes and the root path the app must route to Vitrina.
 */
export function a2aSurface(deps: A2aSurfaceDependencies): Surface {
  const { mount, oauth, capabilities } = deps;
  const card = (origin: string) => {
    const base = `${origin}${mount.basePath}`;
    // The OAuth URLs as a request from this origin resolves them (its issuer may be configured).
    const urls = oauth?.context.urls(new Request(`${origin}/`));
    return buildAgentCard(capabilities.catalog().capabilities, {
      name: deps.options.name ?? "Vitrina",
      description: deps.options.description ?? DEFAULT_DESCRIPTION,
      version: SCOPE_VERSION ?? "0.0.0",
      a2aUrl: `${base}${A2A_PATH}`,
      catalogUrl: `${base}/v1/capabilities`,
      ...(urls !== undefined &&
        oauth !== null && {
          oauth: {
            metadataUrl: authorizationServerMetadataUrl(urls.issuer),
            authorizationUrl: urls.endpoint("/authorize"),
            tokenUrl: urls.endpoint("/token"),
            scopes: oauth.context.scopesSupported,
          },
        }),
    });
  };
  const cardRoute = publicJsonRoute({
    path: AGENT_CARD_PATH,
    revision: capabilities.revision,
    document: (origin) => card(origin ?? mount.publicOrigin ?? ""),
    maxAgeSeconds: 300,
    openapi: false,
    undocumented: "the A2A agent card: a discovery document whose format the A2A specification defines",
    // Absolute URLs (A2A asks for them) follow the request's host unless `publicUrl` fixes them.
    ...(mount.publicOrigin === undefined && { perOrigin: (request: Request) => mount.origin(request) }),
  });
  return {
    routes: [
      cardRoute,
      ...a2aRoutes({
        capabilities,
        authenticate: deps.authenticate,
        ids: deps.ids,
        ...(oauth?.a2aResourceMetadataUrl && { resourceMetadataUrl: oauth.a2aResourceMetadataUrl }),
      }),
    ],
    wellKnownPaths: [AGENT_CARD_PATH],
  };
}
