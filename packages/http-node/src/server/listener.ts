import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { bodyAlreadyReadResponse, bodyTooLargeResponse, DIRECT_BODY_HANDLER } from "@vitrina/core/http";
import { directRequest } from "./direct-request.js";
import { bodyAlreadyConsumed, MOUNT_BEFORE_BODY_PARSERS } from "./consumed-body.js";
import { BadRequestTargetError, BodyTooLargeError, toWebRequest } from "./node-request.js";
import { writeWebResponse } from "./node-response.js";

export type FetchHandler = (request: Request) => Promise<Response>;

export interface NodeListenerOptions {
  /** Largest request body in bytes before 413; default 1 MiB. Routes may set lower limits. */
  maxBodySize?: number;
  /**
   * Called for errors the handler did not turn into a Response, and for a request whose body a
   * parser in front already read (a `BodyAlreadyConsumedError`). Default for the latter: `console.error`.
   */
  onError?: (error: unknown) => void;
}

/** A body parser in front of Vitrina read the request (answered 500 `body_already_consumed`). */
export class BodyAlreadyConsumedError extends Error {
  override readonly name = "BodyAlreadyConsumedError";
  readonly code = "body_already_consumed";
  constructor(method: string, url: string) {
    super(`${method} ${url}: ${MOUNT_BEFORE_BODY_PARSERS}`);
  }
}

function reportConsumedBody(error: BodyAlreadyConsumedError, onError: ((error: unknown) => void) | undefined): void {
  if (onError !== undefined) onError(error);
  else console.error(JSON.stringify({ level: "error", code: error.code, message: error.message }));
}

export const DEFAULT_MAX_BODY_SIZE = 1024 * 1024;

function plainError(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message, reasons: [] } }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", connection: "close" },
  });
}

/** 413 in the format of the route the body was meant for (a JSON-RPC error on `/mcp`), closing the connection. */
function tooLarge(req: IncomingMessage, maxBodySize: number): Response {
  const response = bodyTooLargeResponse(req.url ?? "/", maxBodySize);
  response.headers.set("connection", "close");
  return response;
}

/**
 * A Response Node can't write (a header value web Headers accept but HTTP forbids, such as a
 * control character; a body stream that fails) is reported like a thrown error and answered 500
 * if nothing was sent yet, else the connection is cut: a rejection here would be unhandled and
 * end the whole process.
 */
function answerUnwritable(res: ServerResponse, error: unknown, onError: ((error: unknown) => void) | undefined): void {
  onError?.(error);
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  writeWebResponse(res, plainError(500, "internal", "internal error")).catch(() => res.destroy());
}

/**
 * Adapts a fetch-style handler to `node:http`. Does not touch the global Request/Response.
 * A body over the limit answers 413, in the error format of the route it was sent to (see
 * `bodyTooLargeResponse`: a JSON-RPC error on `/mcp`); an unread body is drained so keep-alive
 * clients don't hang.
 */
export function toNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): RequestListener {
  const maxBodySize = options.maxBodySize ?? DEFAULT_MAX_BODY_SIZE;
  // Core's own handler reads hot routes' bodies straight off the socket (see direct-request.ts);
  // any other handler gets a real web Request.
  const direct = (handler as { [DIRECT_BODY_HANDLER]?: unknown })[DIRECT_BODY_HANDLER] === true;
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      // A declared body over the limit still reaches the handler, whose stream fails before any
      // byte is read: a route with a lower limit of its own (lead intake: 64 KiB) checks the
      // declared length first and names its limit, which is the one the sender must meet; /mcp
      // answers its own refusal as a JSON-RPC error.
      let response: Response;
      if (bodyAlreadyConsumed(req)) {
        // A server-side misconfiguration, not the sender's fault: a 5xx makes well-behaved senders
        // retry (a 4xx would make them drop the lead), and the retry succeeds once the mount is fixed.
        reportConsumedBody(new BodyAlreadyConsumedError(req.method ?? "POST", req.url ?? "/"), options.onError);
        response = bodyAlreadyReadResponse(undefined, { connection: "close" });
      } else {
        try {
          response = await handler(direct ? directRequest(req, res, maxBodySize) : toWebRequest(req, res, maxBodySize));
        } catch (error) {
          if (
            error instanceof BodyTooLargeError ||
            (error as { cause?: unknown })?.cause instanceof BodyTooLargeError
          ) {
            response = tooLarge(req, maxBodySize);
          } else if (error instanceof BadRequestTargetError) {
            response = plainError(400, "invalid_argument", error.message);
          } else {
            options.onError?.(error);
            response = plainError(500, "internal", "internal error");
          }
        }
      }
      // Discard whatever the handler left unread, so the client finishes sending and reads the
      // answer (destroying the socket instead makes clients see a reset, not the 413).
      if (!req.complete) req.resume();
      await writeWebResponse(res, response).catch((error: unknown) => answerUnwritable(res, error, options.onError));
    })();
  };
}
