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
 * What lead intake answers with (the server's codes for this route), plus the client's own:
 * `network_error` (`status` 0), `timeout` (`status` 0: no whole answer within `timeoutMs`),
 * `redirected` (a 3xx: the signed lead is never re-sent to another URL), `invalid_response` (2xx
 * without JSON) and `http_<status>` (a non-2xx without Vitrina's error body, e.g. from a proxy). Open-ended, so a code a newer server
 * adds still type-checks; `switch` over the known ones with a `default` branch.
 */
export type LeadIntakeErrorCode =
  | "missing_signature_headers"
  | "invalid_timestamp"
  | "timestamp_expired"
  | "timestamp_in_future"
  | "unknown_connector"
  | "invalid_signature"
  | "malformed_json"
  | "unsupported_media_type"
  | "payload_too_large"
  | "invalid_payload"
  | "invalid_argument"
  | "not_found"
  | "method_not_allowed"
  | "storage_unavailable"
  | "storage_timeout"
  | "internal"
  | "network_error"
  | "timeout"
  | "redirected"
  | "invalid_response"
  | `http_${number}`
  | (string & {});

/**
 * The lead-intake endpoint answered non-2xx, or could not be reached (`status` 0).
 * `code`, `message` and `reasons` come from the server's `{ error: { … } }` body when it has
 * that shape; otherwise `code` is `http_<status>` and `message` the status text or body.
 */
export class LeadIntakeError extends VitrinaClientError {
  override name = "LeadIntakeError";
  declare readonly code: LeadIntakeErrorCode;
  readonly status: number;
  readonly reasons: FieldReason[];

  constructor(
    status: number,
    code: LeadIntakeErrorCode,
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
  "missing_header" | "malformed_header" | "timestamp_outside_tolerance" | "no_matching_signature" | "invalid_payload";

/** A webhook delivery failed verification; never process the event when this is thrown. */
export class WebhookVerificationError extends VitrinaClientError {
  override name = "WebhookVerificationError";
  declare readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
