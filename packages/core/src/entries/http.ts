// @vitrina/core/http: the framework pieces bindings and custom routes build on: the router, JSON
// answers in the error model, and the one body reader (byte and depth limits, fatal UTF-8).
export { createRouter, type Handler, type Route, type RouteHandler } from "../http/router.js";
export type { OperationDoc, RouteOpenApi, ResponseDoc, DocSchema } from "../http/route-doc.js";
export { jsonResponse, errorResponse, statusForCode } from "../http/json.js";
export { readBodyLimited, isJsonContentType } from "../http/read-body.js";
export { readFormBody, DEFAULT_FORM_MAX_BYTES } from "../http/read-form.js";
export {
  READ_BODY,
  WEB_REQUEST,
  RESPOND,
  DIRECT_BODY_HANDLER,
  type ReadBody,
  type Respond,
} from "../http/direct-body.js";
// The 413 a binding sends before the handler runs is in the format of the surface at that URL.
export { bodyTooLargeResponse } from "../mcp/body-too-large.js";
export { MOUNT_BEFORE_BODY_PARSERS, bodyAlreadyReadResponse } from "../http/consumed-body.js";
export { readJsonBody, decodeJsonBody, DEFAULT_MAX_JSON_DEPTH, type JsonBodyLimits } from "../http/read-json.js";
export { publicJsonRoute, type PublicJsonRouteOptions } from "../http/public-json-route.js";
export { parseOrThrow, reasonsFromZod } from "../validation.js";
