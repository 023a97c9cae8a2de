import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/** Raised inside the body stream; core's `readBodyLimited` recognises it by name and answers 413. */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
  constructor(readonly limit: number) {
    super(`request body exceeds the limit of ${limit} bytes`);
  }
}

/**
 * Builds a web Request from a Node IncomingMessage. The body streams through unchanged (byte for
 * byte: signatures are computed over it) and is capped at `maxBodySize`; the request's signal
 * aborts when the client goes away, so handlers can stop work nobody will read.
 */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, maxBodySize: number): Request {
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const host = req.headers.host ?? `${req.socket.localAddress ?? "localhost"}:${req.socket.localPort ?? ""}`;
  const url = new URL(req.url ?? "/", `${encrypted ? "https" : "http"}://${host}`);

  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }

  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });

  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    signal: controller.signal,
    body: hasBody ? cappedStream(req, maxBodySize) : null,
    // Required by Node's fetch for streaming request bodies.
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}

function cappedStream(req: IncomingMessage, maxBodySize: number): ReadableStream<Uint8Array> {
  let seen = 0;
  const web = Readable.toWeb(req) as ReadableStream<Uint8Array>;
  return web.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBodySize) controller.error(new BodyTooLargeError(maxBodySize));
        else controller.enqueue(chunk);
      },
    }),
  );
}
