import type { IdGenerator } from "../ports/ids.js";
import { type Logger } from "../ports/logger.js";
import { childLogger } from "../logging/loggers.js";
import { errorResponse } from "./json.js";

/** What a route knows about the request it serves besides the Request itself. */
export interface RequestContext {
  /** Every entry written while serving the request carries its `requestId`. */
  logger: Logger;
  /** The `X-Request-Id` answered; absent only when a router is used without `withRequestId`. */
  requestId?: string;
}

/** A handler that may be given the request's context by an outer layer. */
export type ContextualHandler = (request: Request, context?: RequestContext) => Promise<Response>;

export const REQUEST_ID_HEADER = "x-request-id";
/** Conservative on purpose: the id lands in logs and headers, so no spaces, quotes or newlines. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `X-Request-Id` when well-formed (a proxy's or a CRM's, to correlate), else a new one. */
export function requestIdFor(request: Request, ids: IdGenerator): string {
  const offered = request.headers.get(REQUEST_ID_HEADER);
  return offered !== null && WELL_FORMED_REQUEST_ID.test(offered) ? offered : ids();
}

/** Sets a header even on a Response whose headers are immutable (`Response.redirect`, a fetched one). */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    copy.headers.set(name, value);
    return copy;
  }
}

/**
 * The outermost layer of the service: gives every request an id, a logger bound to it, and
 * answers it in `X-Request-Id` on every response (errors, 404s, MCP and OAuth included).
 */
export function withRequestId(
  inner: ContextualHandler,
  deps: { ids: IdGenerator; logger: Logger },
): (request: Request) => Promise<Response> {
  return async (request) => {
    const requestId = requestIdFor(request, deps.ids);
    const logger = childLogger(deps.logger, { requestId });
    let response: Response;
    try {
      response = await inner(request, { requestId, logger });
    } catch (error) {
      response = errorResponse(error, logger, {}, requestId);
    }
    return withHeader(response, REQUEST_ID_HEADER, requestId);
  };
}
