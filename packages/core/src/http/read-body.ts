import { concatBytes } from "../crypto/encoding.js";
import { PayloadTooLargeError, VitrinaError } from "../errors.js";
import { bodyReaderOf } from "./direct-body.js";

/** Why a body could not be read, in the error model. */
function unreadable(cause: unknown): never {
  // A server binding (e.g. @vitrina/http-node) may cap the body itself at a lower limit; it raises
  // a PayloadTooLargeError, matched by code so a second copy of core still answers 413.
  if ((cause as { code?: unknown } | null)?.code === "payload_too_large") {
    throw new PayloadTooLargeError((cause as Error).message, { cause });
  }
  throw new VitrinaError("invalid_argument", "request body could not be read", { cause });
}

/**
 * Reads a request body as bytes, exactly as sent, refusing more than `maxBytes` without buffering
 * the excess (a lying or missing Content-Length can't get past the running count).
 */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new PayloadTooLargeError(`request body exceeds the limit of ${maxBytes} bytes`);
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge();
  const readDirectly = bodyReaderOf(request);
  if (readDirectly !== undefined) {
    const bytes = await readDirectly(maxBytes).catch(unreadable);
    if (bytes === undefined) throw tooLarge();
    return bytes;
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(unreadable);
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : concatBytes(...chunks);
}

/** The request's media type without parameters, lower-cased (`application/json`); undefined when absent. */
export function mediaTypeOf(request: Request): string | undefined {
  return request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
}

/** True for `application/json` with or without parameters (`; charset=utf-8`). */
export function isJsonContentType(request: Request): boolean {
  return mediaTypeOf(request) === "application/json";
}
