import { VitrinaError } from "../errors.js";
import { isJsonContentType, readBodyLimited } from "./read-body.js";

/** Reads a JSON request body: 415 unless `application/json`, 413 over `maxBytes`, 400 if not UTF-8 JSON. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  if (!isJsonContentType(request)) {
    await request.body?.cancel().catch(() => {});
    throw new VitrinaError("unsupported_media_type", "Content-Type must be application/json");
  }
  const body = await readBodyLimited(request, maxBytes);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch (cause) {
    throw new VitrinaError("malformed_json", "request body is not valid UTF-8 JSON", { cause });
  }
}
