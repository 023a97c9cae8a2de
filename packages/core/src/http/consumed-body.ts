import { READ_BODY } from "./direct-body.js";
import { jsonResponse } from "./json.js";

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

/** 500 `body_already_consumed`: a server-side mistake the sender can't fix, so a 5xx (senders retry). */
export function bodyAlreadyReadResponse(requestId: string | undefined): Response {
  const error = { code: "body_already_consumed", message: MOUNT_BEFORE_BODY_PARSERS, reasons: [] };
  return jsonResponse({ error: requestId === undefined ? error : { ...error, request_id: requestId } }, 500);
}
