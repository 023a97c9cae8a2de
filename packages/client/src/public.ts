// Everything both entries export besides the five functions: types, errors and constants.
export { LeadIntakeError, VitrinaClientError, WebhookVerificationError } from "./errors.js";
export type { FieldReason, LeadIntakeErrorCode, WebhookVerificationErrorCode } from "./errors.js";
export type * from "./types.js";
export { DEFAULT_HEADER_PREFIX } from "./lead-signing.js";
export type { SignedLead, SignLeadOptions } from "./lead-signing.js";
export type { SendLeadOptions } from "./send-lead.js";
export type { SignWebhookOptions, VerifyWebhookOptions, WebhookSignatureScheme } from "./webhook-signature.js";
export { MAX_WEBHOOK_BODY_BYTES } from "./webhook-receiver.js";
export type { WebhookHandler, WebhookReceiverOptions } from "./webhook-receiver.js";
export type { HmacSha256 } from "./hmac.js";
