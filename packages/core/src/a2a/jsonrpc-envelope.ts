import { CAPABILITY_CALL_BODY_LIMIT } from "../http/body-limits.js";
import { ValidationError, VitrinaError } from "../errors.js";
import { readBodyLimited } from "../http/read-body.js";
import { decodeJsonBody, requireJsonContentType } from "../http/read-json.js";
import { A2A_ERROR_CODE, A2aFailure } from "./a2a-errors.js";

export type JsonRpcId = string | number | null;

export interface JsonRpcRequest {
  id: JsonRpcId;
  method: string;
  params: unknown;
}

const isId = (id: unknown): id is JsonRpcId =>
  id === null || typeof id === "string" || (typeof id === "number" && Number.isInteger(id));

/** The id of a body that parsed but was refused, so the refusal still answers that request. */
function idOf(bytes: Uint8Array): JsonRpcId {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : null;
    return isId(id) ? id : null;
  } catch {
    return null;
  }
}

/** A body-level path (`params.message.parts[0]`) as the params-relative one A2A errors name. */
const underParams = (field: string) => (field.startsWith("params.") ? field.slice("params.".length) : field);

/**
 * Reads one JSON-RPC 2.0 request through core's body rules (JSON content type, size, UTF-8, depth,
 * no U+0000 or lone surrogates) and answers each failure as the JSON-RPC error it is: parse error,
 * invalid request, or invalid params naming the field (with the request's id when it has one).
 */
export async function readJsonRpcRequest(request: Request): Promise<JsonRpcRequest> {
  let bytes: Uint8Array;
  try {
    await requireJsonContentType(request);
    bytes = await readBodyLimited(request, CAPABILITY_CALL_BODY_LIMIT);
  } catch (error) {
    if (!(error instanceof VitrinaError)) throw error;
    const status = error.code === "payload_too_large" ? 413 : error.code === "unsupported_media_type" ? 415 : 400;
    throw new A2aFailure(A2A_ERROR_CODE.INVALID_REQUEST, error.message, { code: error.code, httpStatus: status });
  }
  let body: unknown;
  try {
    body = decodeJsonBody(bytes, { subject: "JSON-RPC request" });
  } catch (error) {
    if (error instanceof ValidationError) {
      const reasons = error.reasons.map((r) => ({ field: underParams(r.field), reason: r.reason }));
      throw new A2aFailure(A2A_ERROR_CODE.INVALID_PARAMS, error.message, {
        code: error.code,
        reasons,
        id: idOf(bytes),
      });
    }
    if (error instanceof VitrinaError)
      throw new A2aFailure(A2A_ERROR_CODE.PARSE_ERROR, error.message, { code: error.code, httpStatus: 400 });
    throw error;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new A2aFailure(
      A2A_ERROR_CODE.INVALID_REQUEST,
      "send one JSON-RPC 2.0 request object (batches are not served)",
      {
        httpStatus: 400,
      },
    );
  const { jsonrpc, id, method, params } = body as Record<string, unknown>;
  const requestId = isId(id) ? id : null;
  const reasons = [
    ...(jsonrpc === "2.0" ? [] : [{ field: "jsonrpc", reason: 'must be "2.0"' }]),
    ...(isId(id) && id !== null
      ? []
      : [{ field: "id", reason: "must be a string or an integer: A2A calls are requests" }]),
    ...(typeof method === "string" && method !== "" ? [] : [{ field: "method", reason: "must be a method name" }]),
    ...(params === undefined || (typeof params === "object" && params !== null && !Array.isArray(params))
      ? []
      : [{ field: "params", reason: "must be an object" }]),
  ];
  if (reasons.length > 0)
    throw new A2aFailure(A2A_ERROR_CODE.INVALID_REQUEST, "not a JSON-RPC 2.0 request", {
      reasons,
      httpStatus: 400,
      id: requestId,
    });
  return { id: requestId, method: method as string, params: params ?? {} };
}
