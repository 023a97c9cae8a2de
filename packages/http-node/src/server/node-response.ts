import { validateHeaderValue, type ServerResponse } from "node:http";
import { unbuiltText } from "./direct-response.js";

type Chunk = ReadableStreamReadResult<Uint8Array>;

/** Resolves with null on the next turn of the event loop, after the pending I/O callbacks. */
const nextTurn = () => new Promise<null>((resolve) => setImmediate(resolve, null));

/**
 * Writes a web Response to a Node ServerResponse, honouring backpressure (`drain`).
 *
 * A body that is all there at once (a Response made from a string or bytes, which is nearly every
 * answer: JSON, errors, the console's files) goes out with `content-length` in one write: headers
 * and body in a single packet, no chunked framing and no separate terminating chunk (two socket
 * writes fewer per request). A body still being produced streams as before: its first chunk is
 * written as soon as the next one is not ready by the next turn of the event loop.
 *
 * Rejects when the response can't be written (a header value Node refuses, a body stream that
 * fails); the caller decides between a 500 (nothing sent yet) and cutting the connection.
 */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const text = unbuiltText(response);
  if (text !== undefined) {
    writeText(res, response, text);
    return;
  }
  const headers = headersFor(response);

  if (response.body === null) {
    res.writeHead(response.status, response.statusText, headers);
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // A client that leaves mid-body would leave us waiting for a `drain` that never comes, or for a
  // chunk a slow producer (a feed, a long poll) may never make: every wait also ends when the
  // client is gone, and the body is then cancelled so its producer stops and lets go of what it holds.
  const gone = clientGone(res);
  try {
    const first = await untilGone(reader.read(), gone.promise);
    if (first === GONE) return await reader.cancel();
    let next: Promise<Chunk> | null = null;
    if (!first.done) {
      next = reader.read();
      const second = await Promise.race([next, nextTurn()]);
      if (second !== null && second.done) next = null;
    }
    if (next === null) {
      // The whole body is `first` (or nothing).
      const body = first.done ? new Uint8Array(0) : first.value;
      if (headers["content-length"] === undefined && headers["transfer-encoding"] === undefined)
        headers["content-length"] = String(body.byteLength);
      res.writeHead(response.status, response.statusText, headers);
      res.end(body);
      return;
    }
    res.writeHead(response.status, response.statusText, headers);
    let chunk: Chunk | typeof GONE = first;
    for (;;) {
      if (chunk === GONE) return await reader.cancel();
      if (chunk.done) break;
      if (!res.write(chunk.value) && (await untilGone(drained(res), gone.promise)) === GONE) {
        return await reader.cancel();
      }
      chunk = await untilGone(next ?? reader.read(), gone.promise);
      next = null;
    }
    res.end();
  } finally {
    gone.dispose();
  }
}

const GONE = Symbol("client gone");

/** Settles with `GONE` once the response is closed before it finished (the client went away). */
function clientGone(res: ServerResponse): { promise: Promise<typeof GONE>; dispose(): void } {
  let onClose = () => {};
  const promise = new Promise<typeof GONE>((resolve) => {
    onClose = () => resolve(GONE);
    if (res.destroyed) resolve(GONE);
    else res.once("close", onClose);
  });
  return { promise, dispose: () => res.off("close", onClose) };
}

const untilGone = <T>(wait: Promise<T>, gone: Promise<typeof GONE>) => Promise.race([wait, gone]);

const drained = (res: ServerResponse) => new Promise<void>((resolve) => res.once("drain", () => resolve()));

/** A DirectResponse (see direct-response.ts): headers and its text in one write, with content-length. */
function writeText(res: ServerResponse, response: Response, text: string): void {
  const headers = headersFor(response);
  const body = Buffer.from(text);
  headers["content-length"] = String(body.byteLength);
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * A Response's headers for `writeHead`, each Set-Cookie kept as its own line. Checked here, since
 * web Headers accept values HTTP forbids (control characters): a `writeHead` that throws half-way
 * has already changed the response (a 204 stops it from carrying the 500 sent instead).
 */
function headersFor(response: Response): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    validateHeaderValue(name, value);
    if (name === "set-cookie") return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  return headers;
}
