import { PolicyBlockedError, AttemptInProgressError, VitrinaError, type FieldReason } from "../errors.js";
import { statusForCode } from "../http/json.js";

/**
 * JSON-RPC error codes of the A2A v1.0 binding, and the one Vitrina adds. The rule: the HTTP status
 * says only what HTTP can say (401/403 for credentials, 400 for a body that is no JSON-RPC request,
 * 413/415 for the body, 5xx for our own trouble); every other refusal is HTTP 200 with its code here.
 */
export const A2A_ERROR_CODE = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  TASK_NOT_FOUND: -32001,
  PUSH_NOTIFICATION_NOT_SUPPORTED: -32003,
  UNSUPPORTED_OPERATION: -32004,
  CONTENT_TYPE_NOT_SUPPORTED: -32005,
  EXTENDED_CARD_NOT_CONFIGURED: -32007,
  VERSION_NOT_SUPPORTED: -32009,
  /**
   * The capability refused the call by Vitrina's rules (a credential or scope, a policy, an unknown
   * record, an idempotency key in use): implementation-defined, as `/mcp` answers HTTP-level
   * refusals; `error.data`'s ErrorInfo names the stable Vitrina code.
   */
  REFUSED: -32000,
} as const;

/** The ErrorInfo reason A2A defines for its own codes (the SDK's names); the others use Vitrina's code. */
const A2A_REASONS: Partial<Record<number, string>> = {
  [A2A_ERROR_CODE.TASK_NOT_FOUND]: "TASK_NOT_FOUND",
  [A2A_ERROR_CODE.PUSH_NOTIFICATION_NOT_SUPPORTED]: "PUSH_NOTIFICATION_NOT_SUPPORTED",
  [A2A_ERROR_CODE.UNSUPPORTED_OPERATION]: "UNSUPPORTED_OPERATION",
  [A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED]: "CONTENT_TYPE_NOT_SUPPORTED",
  [A2A_ERROR_CODE.EXTENDED_CARD_NOT_CONFIGURED]: "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
  [A2A_ERROR_CODE.VERSION_NOT_SUPPORTED]: "VERSION_NOT_SUPPORTED",
  [A2A_ERROR_CODE.INVALID_PARAMS]: "INVALID_PARAMS",
};

/** Where the capability's own input and the idempotency key sit in `SendMessage`'s params. */
export const INPUT_PATH = "message.parts[0].data.input";
export const IDEMPOTENCY_KEY_PATH = "message.metadata.idempotencyKey";

/** One refusal on `/a2a`, as the route answers it. */
export class A2aFailure extends Error {
  constructor(
    readonly rpcCode: number,
    message: string,
    readonly details: {
      /** The Vitrina code, when the refusal is one of Vitrina's. */
      code?: string;
      reasons?: FieldReason[];
      /** ErrorInfo metadata beyond the code (`taskId`, `retryAt`). */
      metadata?: Record<string, string>;
      httpStatus?: number;
      headers?: Record<string, string>;
      /** The request's JSON-RPC id, when the body was refused before the route could read it. */
      id?: string | number | null;
      /** What went wrong underneath, for the log of an internal error. */
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}

/** A refusal of the params with the fields at fault (paths under `params`). */
export const invalidParams = (message: string, reasons: FieldReason[], code = "invalid_payload") =>
  new A2aFailure(A2A_ERROR_CODE.INVALID_PARAMS, message, { code, reasons });

/** The runtime's field names, as they sit in `SendMessage`'s params. */
function paramsField(field: string): string {
  if (field === "idempotencyKey") return IDEMPOTENCY_KEY_PATH;
  return field === "" ? INPUT_PATH : `${INPUT_PATH}.${field}`;
}

/**
 * A capability's refusal as an A2A error: bad input is Invalid params with each field's path,
 * a 5xx code an internal error (its message kept for the log), the rest Vitrina's refusal with
 * its code, its reasons and, for a policy block, the task a person now reviews.
 */
export function failureOfCapability(error: VitrinaError): A2aFailure {
  const reasons = error.reasons.map((r) => ({ field: paramsField(r.field), reason: r.reason }));
  const status = statusForCode(error.code);
  if (status >= 500) {
    const message = error.code === "internal" ? "internal error" : error.message;
    return new A2aFailure(A2A_ERROR_CODE.INTERNAL_ERROR, message, {
      code: error.code,
      httpStatus: status,
      cause: error,
    });
  }
  if (error.code === "invalid_payload" || error.code === "invalid_argument")
    return invalidParams(error.message, reasons, error.code);
  const metadata: Record<string, string> = {};
  if (error instanceof PolicyBlockedError) metadata.taskId = error.taskId;
  if (error instanceof AttemptInProgressError) metadata.retryAt = error.retryAt;
  return new A2aFailure(A2A_ERROR_CODE.REFUSED, error.message, {
    code: error.code,
    // A policy's reason is about the whole call, not a field of the input.
    reasons: error instanceof PolicyBlockedError ? [] : reasons,
    metadata,
    ...(error.code === "insufficient_scope" && { httpStatus: 403 }),
  });
}

/**
 * One notation for every path an A2A error names, the body reader's (`message.parts[0].data`):
 * zod and the runtime join array indices with dots (`parts.0`).
 */
const bracketIndices = (field: string) => field.replace(/\.(\d+)(?=\.|$)/g, "[$1]");

/**
 * The JSON-RPC error object: `data` is a list of typed details as A2A v1.0 asks (google.rpc
 * ErrorInfo, and BadRequest when fields are at fault), so an A2A client reads it natively.
 */
export function jsonRpcError(failure: A2aFailure, requestId?: string) {
  const a2aReason = A2A_REASONS[failure.rpcCode];
  const { code, reasons = [], metadata = {} } = failure.details;
  const info = {
    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
    reason: a2aReason ?? (code ?? "internal").toUpperCase(),
    domain: a2aReason === undefined ? "vitrina" : "a2a-protocol.org",
    metadata: {
      ...(code !== undefined && { code }),
      ...metadata,
      ...(requestId !== undefined && { requestId }),
    },
  };
  const badRequest =
    reasons.length === 0
      ? []
      : [
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: reasons.map((r) => ({ field: bracketIndices(r.field), description: r.reason })),
          },
        ];
  return { code: failure.rpcCode, message: failure.message, data: [info, ...badRequest] };
}
