import type { ServerResponse } from "node:http";
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
  try {
    const first = await reader.read();
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
    let chunk: Chunk = first;
    for (;;) {
      if (chunk.done) break;
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      if (!res.write(chunk.value)) await new Promise<void>((resolve) => res.once("drain", resolve));
      chunk = await (next ?? reader.read());
      next = null;
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
  }
}

/** A DirectResponse (see direct-response.ts): headers and its text in one write, with content-length. */
function writeText(res: ServerResponse, response: Response, text: string): void {
  const headers = headersFor(response);
  const body = Buffer.from(text);
  headers["content-length"] = String(body.byteLength);
  res.writeHead(response.status, headers);
  res.end(body);
}

/** A Response's headers for `writeHead`, each Set-Cookie kept as its own line. */
function headersFor(response: Response): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === "set-cookie") return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  return headers;
}
