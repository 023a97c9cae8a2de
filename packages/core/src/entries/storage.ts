// @vitrina/core/storage: the Storage port for adapter authors: its types, the text rules every
// adapter enforces, and the contract version (the suite itself is in @vitrina/core/testing).
export { STORAGE_CONTRACT_VERSION } from "../ports/storage.js";
export type * from "../ports/storage.js";
export type * from "../ports/records.js";
export type * from "../ports/oauth-records.js";
export type * from "../ports/commerce-records.js";
export type * from "../ports/webhook-records.js";
export type * from "../ports/capability-records.js";
export type * from "../ports/capability-storage.js";
export {
  isStorableText,
  findUnstorableText,
  assertStorableText,
  UNSTORABLE_TEXT_REASON,
} from "../validation/storable-text.js";
export { OUTCOME_UNKNOWN_REASON } from "../leads/reconcile-first-messages.js";
export { CONSENT_WITHDRAWN_REASON, NO_CONSENT_REASON } from "../leads/send-first-message.js";
export { fannedOutDelivery } from "../events/fanned-out-delivery.js";
export { dueOrder } from "../webhooks/due-order.js";
export { mergeDelivery, deliveryStatusOf } from "../channels/whatsapp/delivery-status.js";
export { ACCEPTED_BY_PROVIDER } from "../leads/send-first-message.js";
export { erasedContact, erasedTraceEntry, noErasureCounts } from "../privacy/erased-rows.js";
