/**
 * Every failure Vitrina reports on purpose is a `VitrinaError` with a stable machine `code`.
 * HTTP status codes are chosen from the code in `http/` only; domain code never thinks in HTTP.
 *
 * One shape: a subclass per code that carries extra meaning or is thrown from many places, and
 * it fixes its own code (`new ConflictError(message)`, never `new ConflictError("conflict", …)`).
 * The two families with several codes (`SignatureError`, `StorageError`) take the code first.
 * Codes thrown from one place only may use `new VitrinaError(code, …)` directly. A plain `Error`
 * never leaves core on purpose: bugs are `VitrinaError("internal", …, { cause })`.
 */
export type VitrinaErrorCode =
  | "missing_signature_headers"
  | "invalid_timestamp"
  | "timestamp_expired"
  | "timestamp_in_future"
  | "unknown_connector"
  | "invalid_signature"
  | "unauthorized"
  | "insufficient_scope"
  | "policy_blocked"
  | "forbidden"
  | "malformed_json"
  | "unsupported_media_type"
  | "payload_too_large"
  | "invalid_payload"
  | "invalid_argument"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "idempotency_key_reused"
  | "messaging_failed"
  | "window_closed"
  | "storage_unavailable"
  | "storage_timeout"
  | "shutting_down"
  | "body_already_consumed"
  | "internal";

/** One field at fault and why, as users see it in `error.reasons`. */
export interface FieldReason {
  /** Dotted path of the field, e.g. `contact.phone_e164`; `""` for the whole body. */
  field: string;
  reason: string;
}

export interface VitrinaErrorOptions {
  reasons?: FieldReason[];
  cause?: unknown;
}

export class VitrinaError extends Error {
  override readonly name: string = "VitrinaError";
  readonly code: VitrinaErrorCode;
  readonly reasons: FieldReason[];

  constructor(code: VitrinaErrorCode, message: string, options: VitrinaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.reasons = options.reasons ?? [];
  }

  toJSON(): { code: VitrinaErrorCode; message: string; reasons: FieldReason[] } {
    return { code: this.code, message: this.message, reasons: this.reasons };
  }
}

/** The signed request could not be authenticated (headers, timestamp window, connector, HMAC). */
export class SignatureError extends VitrinaError {
  override readonly name = "SignatureError";
}

/** Input failed validation; `reasons` lists every field at fault. */
export class ValidationError extends VitrinaError {
  override readonly name = "ValidationError";
  constructor(message: string, reasons: FieldReason[], options: { cause?: unknown } = {}) {
    super("invalid_payload", message, { reasons, cause: options.cause });
  }
}

/** The caller is known but may not do this (role, membership, opt-out). */
export class ForbiddenError extends VitrinaError {
  override readonly name = "ForbiddenError";
  constructor(message: string, options: VitrinaErrorOptions = {}) {
    super("forbidden", message, options);
  }
}

/** The credential (API key or access token) lacks a scope; `reasons` names each missing one. */
export class InsufficientScopeError extends VitrinaError {
  override readonly name = "InsufficientScopeError";
  constructor(message: string, options: VitrinaErrorOptions = {}) {
    super("insufficient_scope", message, options);
  }
}

/** The caller's answer when a policy blocked the command: code `policy_blocked`, with the task to follow. */
export class PolicyBlockedError extends VitrinaError {
  override readonly name = "PolicyBlockedError";
  constructor(
    readonly capability: string,
    readonly reason: string,
    readonly taskId: string,
  ) {
    super("policy_blocked", `${capability} was blocked by a policy: ${reason} (task ${taskId} waits for a person)`, {
      reasons: [{ field: "", reason }],
    });
  }

  override toJSON() {
    return { ...super.toJSON(), taskId: this.taskId };
  }
}

/** The write collides with the current state: a unique rule, a status that forbids it, a lease. */
export class ConflictError extends VitrinaError {
  override readonly name: string = "ConflictError";
  constructor(message: string, options: VitrinaErrorOptions = {}) {
    super("conflict", message, options);
  }
}

/** A `logical-attempt` command with this idempotency key is still executing: retry after `retryAt`. */
export class AttemptInProgressError extends ConflictError {
  override readonly name = "AttemptInProgressError";
  constructor(
    message: string,
    /** When the running attempt's lease ends (ISO 8601): a retry then reconciles or replays. */
    readonly retryAt: string,
  ) {
    super(message);
  }
}

/** An idempotency key was reused with a different input: the key names one change, use a new one. */
export class IdempotencyKeyReusedError extends VitrinaError {
  override readonly name = "IdempotencyKeyReusedError";
  constructor(message: string) {
    super("idempotency_key_reused", message, {
      reasons: [{ field: "idempotencyKey", reason: "was used with a different input" }],
    });
  }
}

/**
 * The request body is over a size limit. Server bindings (e.g. `@vitrina/http-node`) raise a
 * subclass inside the body stream; core recognises it by its code, so a second copy of core in
 * node_modules can't turn a 413 into a 400.
 */
export class PayloadTooLargeError extends VitrinaError {
  override readonly name: string = "PayloadTooLargeError";
  constructor(message: string, options: VitrinaErrorOptions = {}) {
    super("payload_too_large", message, options);
  }
}

export class NotFoundError extends VitrinaError {
  override readonly name = "NotFoundError";
  constructor(message: string, options: VitrinaErrorOptions = {}) {
    super("not_found", message, options);
  }
}

/** A storage backend failed or timed out; `cause` carries the driver's error. */
export class StorageError extends VitrinaError {
  override readonly name = "StorageError";
}

/** The messaging provider refused or failed to take a message. */
export class MessagingError extends VitrinaError {
  override readonly name = "MessagingError";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("messaging_failed", message, options);
  }
}

export function isVitrinaError(value: unknown): value is VitrinaError {
  return value instanceof VitrinaError;
}
