import type { CapabilityService } from "../capabilities/capability-service.js";
import { publicJsonRoute } from "../http/public-json-route.js";
import type { Route } from "../http/router.js";
import { buildOpenApiDocument, type OpenApiOptions } from "./openapi-document.js";

/**
 * `GET /v1/openapi.json`: public and cacheable like the catalog, rebuilt when a capability is
 * registered (the registry's revision is its ETag input).
 */
export function openApiRoute(options: {
  capabilities: CapabilityService;
  serverUrl: string;
  rest: boolean;
  leadHeaders: OpenApiOptions["leadHeaders"];
  eventHeaders: OpenApiOptions["eventHeaders"];
}): Route {
  return publicJsonRoute({
    path: "/v1/openapi.json",
    revision: options.capabilities.revision,
    document: () =>
      buildOpenApiDocument(options.capabilities.catalog().capabilities, {
        serverUrl: options.serverUrl,
        rest: options.rest,
        leadHeaders: options.leadHeaders,
        eventHeaders: options.eventHeaders,
      }),
    maxAgeSeconds: 300,
  });
}
