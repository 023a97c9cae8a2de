import type { CapabilityService } from "../capabilities/capability-service.js";
import { publicJsonRoute } from "../http/public-json-route.js";
import type { Route } from "../http/router.js";
import { buildOpenApiDocument, type OpenApiOptions } from "./openapi-document.js";

/** Where the document is served, under the mount. */
export const OPENAPI_PATH = "/v1/openapi.json";

/**
 * `GET /v1/openapi.json`: public and cacheable like the catalog, built by walking `routes()` (this
 * one included) and rebuilt when a capability is registered (the registry's revision is its ETag input).
 */
export function openApiRoute(
  options: OpenApiOptions & { capabilities: CapabilityService; routes: () => Route[] },
): Route {
  return publicJsonRoute({
    path: OPENAPI_PATH,
    revision: options.capabilities.revision,
    document: () => buildOpenApiDocument(options.routes(), options),
    maxAgeSeconds: 300,
    openapi: { operationId: "openapi_document", summary: "This OpenAPI 3.1 document." },
  });
}
