import type { IncomingMessage, ServerResponse } from "node:http";
import { PayloadTooLargeError } from "@vitrina/core";

/** Raised inside the body stream; core's `readBodyLimited` recognises its code and answers 413. */
export class BodyTooLargeError extends PayloadTooLargeError {
  override readonly name = "BodyTooLargeError";
  constructor(readonly limit: number) {
    super(`request body exceeds the limit of ${limit} bytes`);
  }
}

/** Thrown for a request whose Host header or target can't form a URL; answered 400. */
export class BadRequestTargetError extends Error {
  override readonly name = "BadRequestTargetError";
}

/**
 * The request's absolute URL, from its Host header (or the socket) and target. A target starting
 * with "/" is a path, even `//evil.example/x`: resolved as a relative URL it would name a host
 * of its own and replace the Host header (the origin Vitrina prints in OAuth metadata and its
 * 401s), and move the path (`//x/mcp` would reach `/mcp`).
 */
export function requestUrl(req: IncomingMessage): URL {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const host = req.headers.host ?? `${req.socket.localAddress ?? "localhost"}:${req.socket.localPort ?? ""}`;
  const target = req.url ?? "/";
  try {
    const origin = new URL(`${encrypted ? "https" : "http"}://${host}`).origin;
    return target.startsWith("/") ? new URL(`${origin}${target}`) : new URL(target, origin);
  } catch {
    // A malformed Host header is the client's error, not a reason for a 500.
    throw new BadRequestTargetError(`cannot form a URL from Host "${host}" and target "${req.url ?? ""}"`);
  }
}

/** Node's parsed headers as web Headers (a repeated header as Node joined or listed it). */
export function nodeHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return headers;
}

/** A signal that aborts when the client goes away before the response finished (already, or later). */
export function abortOnClientGone(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (res.destroyed && !res.writableFinished) controller.abort();
  else
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
  return controller.signal;
}

/**
 * Builds a web Request from a Node IncomingMessage. The body streams through unchanged (byte for
 * byte: signatures are computed over it) and is capped at `maxBodySize`; the request's signal
 * aborts when the client goes away, so handlers can stop work nobody will read.
 */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, maxBodySize: number): Request {
  const url = requestUrl(req);
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers: nodeHeaders(req),
    signal: abortOnClientGone(res),
    body: hasBody ? cappedStream(req, maxBodySize) : null,
    // Required by Node's fetch for streaming request bodies.
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}

/**
 * The request body as a web stream, paused when the consumer is slow (backpressure) and failing
 * with BodyTooLargeError past the cap. Cancelling detaches it and lets Node discard the rest.
 * (Readable.toWeb is not used: after a cancel it still enqueues and throws ERR_INVALID_STATE.)
 */
export function cappedStream(req: IncomingMessage, maxBodySize: number): ReadableStream<Uint8Array> {
  let seen = 0;
  let detach = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (Number(req.headers["content-length"] ?? 0) > maxBodySize) {
        controller.error(new BodyTooLargeError(maxBodySize));
        return;
      }
      const onData = (chunk: Buffer) => {
        seen += chunk.byteLength;
        if (seen > maxBodySize) {
          detach();
          controller.error(new BodyTooLargeError(maxBodySize));
          return;
        }
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      };
      const onEnd = () => {
        detach();
        controller.close();
      };
      const onError = (error: Error) => {
        detach();
        controller.error(error);
      };
      detach = followBody(req, { data: onData, end: onEnd, error: onError });
    },
    pull() {
      req.resume();
    },
    cancel() {
      detach();
      req.resume();
    },
  });
}

type BodyListeners = {
  data: (chunk: Buffer) => void;
  end: () => void;
  error: (error: Error) => void;
  close?: () => void;
};

/** Attaches `listeners` to the request body's events; returns what detaches them all again. */
export function followBody(req: IncomingMessage, listeners: BodyListeners): () => void {
  const attached = Object.entries(listeners) as [string, (...args: unknown[]) => void][];
  for (const [event, listener] of attached) req.on(event, listener);
  return () => {
    for (const [event, listener] of attached) req.off(event, listener);
  };
}
