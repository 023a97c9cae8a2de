import type { IncomingMessage, ServerResponse } from "node:http";
import { READ_BODY, RESPOND, WEB_REQUEST } from "@vitrina/core/http";
import { delegateToWeb } from "./delegate-to-web.js";
import { DirectResponse } from "./direct-response.js";
import {
  abortOnClientGone,
  BodyTooLargeError,
  cappedStream,
  followBody,
  nodeHeaders,
  requestUrl,
} from "./node-request.js";

/**
 * What the listener hands a handler marked `DIRECT_BODY_HANDLER` (core's own): a Request whose
 * method, URL and headers come straight from Node, whose body core's `readBodyLimited` reads off
 * the socket through `READ_BODY` (no web stream, no undici Request), and which turns into a real
 * Request (`WEB_REQUEST`) the moment anything else is asked of it. Core's router hands routes
 * other than the few hot ones that real Request, so no hook or user code ever sees this object.
 * (See core's `direct-body.ts` for the protocol; measured in the lead-intake bench.)
 */
class DirectRequest {
  readonly method: string;
  readonly url: string;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #maxBodySize: number;
  #headers: Headers | undefined;
  #web: Request | undefined;
  /** Whether `READ_BODY` took the body; `#bytes` holds it unless it was over the limit. */
  #bodyTaken = false;
  /** The body `READ_BODY` read: a later real Request carries these bytes. */
  #bytes: Uint8Array | undefined;

  constructor(req: IncomingMessage, res: ServerResponse, maxBodySize: number) {
    this.#req = req;
    this.#res = res;
    this.#maxBodySize = maxBodySize;
    this.method = req.method ?? "GET";
    this.url = requestUrl(req).href;
  }

  get headers(): Headers {
    return this.#web?.headers ?? (this.#headers ??= nodeHeaders(this.#req));
  }

  [READ_BODY](maxBytes: number): Promise<Uint8Array | undefined> {
    if (this.#web !== undefined || this.#bodyTaken) {
      return Promise.reject(new TypeError("the request body was already read"));
    }
    this.#bodyTaken = true;
    const limit = Math.min(maxBytes, this.#maxBodySize);
    return readNodeBody(this.#req, limit).then((bytes) => {
      if (bytes === undefined && limit < maxBytes) throw new BodyTooLargeError(this.#maxBodySize);
      this.#bytes = bytes;
      return bytes;
    });
  }

  [RESPOND](status: number, headers: Record<string, string>, body: string): Response {
    return new DirectResponse(status, headers, body) as unknown as Response;
  }

  /** The real Request: the same method, URL and headers, the body as sent or as `READ_BODY` read it. */
  [WEB_REQUEST](): Request {
    if (this.#web !== undefined) return this.#web;
    const hasBody = this.method !== "GET" && this.method !== "HEAD";
    this.#web = new Request(this.url, {
      method: this.method,
      headers: this.headers,
      signal: abortOnClientGone(this.#res),
      body: hasBody ? (this.#bytes ?? cappedStream(this.#req, this.#maxBodySize)) : null,
      ...(hasBody ? { duplex: "half" } : {}),
    } as RequestInit);
    return this.#web;
  }
}

delegateToWeb(DirectRequest.prototype, Request.prototype, (self: DirectRequest) => self[WEB_REQUEST](), [
  "method",
  "url",
]);

/** A Request backed by Node's `req` (see DirectRequest); throws BadRequestTargetError for a URL that can't be formed. */
export function directRequest(req: IncomingMessage, res: ServerResponse, maxBodySize: number): Request {
  return new DirectRequest(req, res, maxBodySize) as unknown as Request;
}

/**
 * The body off the socket: all of it, or `undefined` once it passes `limit` (then detached, and
 * the rest left to the listener, which discards it so the client reads the answer).
 */
function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  if (Number(req.headers["content-length"] ?? 0) > limit) return Promise.resolve(undefined);
  // Already ended (and so read): no "end" would come to settle the promise.
  if (req.readableEnded) return Promise.resolve(new Uint8Array(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    const onData = (chunk: Buffer) => {
      seen += chunk.byteLength;
      if (seen > limit) {
        detach();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      detach();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, seen));
    };
    const onError = (error: Error) => {
      detach();
      reject(error);
    };
    const onClose = () => {
      // The client went away mid-body: no "end" will come.
      detach();
      reject(new Error("the client closed the connection before the body was complete"));
    };
    const detach = followBody(req, { data: onData, end: onEnd, error: onError, close: onClose });
  });
}
