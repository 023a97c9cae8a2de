/**
 * One base class so callers can `catch (e) { if (e instanceof VitrinaClientError) … e.code }`;
 * `code` is stable and machine-readable, `message` is for humans and may change.
 */
export class VitrinaClientError extends Error {
  override name = "VitrinaClientError";
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** A field-level reason the server gave for rejecting (part of) a lead. */
export interface FieldReason {
  field: string;
  reason: string;
}

/**
 * The lead-intake endpoint answered non-2xx, or could not be reached (`status` 0).
 * `code`, `message` and `reasons` come from the server's `{ error: { … } }` body when it has
 * that shape; otherwise `code` is `http_<status>` and `message` the status text or body.
 */
export class LeadIntakeError extends VitrinaClientError {
  override name = "LeadIntakeError";
  readonly status: number;
  readonly reasons: FieldReason[];

  constructor(
    status: number,
    code: string,
    message: string,
    reasons: FieldReason[] = [],
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.status = status;
    this.reasons = reasons;
  }
}

export type WebhookVerificationErrorCode =
  | "missing_header"
  | "malformed_header"
  | "timestamp_outside_tolerance"
  | "no_matching_signature"
  | "invalid_payload";

/** A webhook delivery failed verification; never process the event when this is thrown. */
export class WebhookVerificationError extends VitrinaClientError {
  override name = "WebhookVerificationError";
  declare readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
