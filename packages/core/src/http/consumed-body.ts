import { READ_BODY } from "./direct-body.js";
import { VitrinaError } from "../errors.js";
import { jsonResponse, statusForCode } from "./json.js";

/**
 * The hint every report of a consumed body carries: the fix is in the app's middleware order.
 * Exported so framework glue and tests name the same words.
 */
export const MOUNT_BEFORE_BODY_PARSERS =
  "the request body was already read by middleware in front of Vitrina: mount Vitrina before body parsers (express.json(), express.urlencoded(), bodyParser, multer, or a wrapper that awaits request.json() or text()) or exclude its path from them; Vitrina verifies signatures over the raw bytes";

/**
 * Whether code in front of Vitrina already read (or is reading) a web Request's body: a wrapper
 * that awaited `request.json()` before passing the same Request on. Reading it again fails deep in
 * a route as a bare TypeError ("Body is unusable"), answered as a plain 500 `internal` with nothing
 * to go on. A server binding's own request (http-node checks the Node stream itself) is never asked:
 * its `bodyUsed` would build the web Request it exists to avoid.
 */
export function bodyAlreadyRead(request: Request): boolean {
  if (READ_BODY in request) return false;
  return request.bodyUsed || request.body?.locked === true;
}

/**
 * 500 `body_already_consumed`, the answer of core's handler and of server bindings alike. Built
 * here rather than through `errorResponse`, which would log it again without the method and path.
 */
export function bodyAlreadyReadResponse(requestId?: string, headers: Record<string, string> = {}): Response {
  const error = new VitrinaError("body_already_consumed", MOUNT_BEFORE_BODY_PARSERS).toJSON();
  const body = { error: requestId === undefined ? error : { ...error, request_id: requestId } };
  return jsonResponse(body, statusForCode(error.code), headers);
}
