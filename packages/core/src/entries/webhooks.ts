// @vitrina/core/webhooks: the outbox's parts for receivers' tests and custom emitters: event
// schemas, signing, the SSRF guard and the retry schedule.
export { emitEvent, RETRY_WINDOW_MS } from "../events/emit-event.js";
export {
  eventDataSchemas,
  eventEnvelopeSchema,
  eventJsonSchemas,
  eventSchemasDocument,
  type EventData,
} from "../events/event-schemas.js";
export { EVENT_TYPES, isEventType } from "../events/event-types.js";
export {
  signatureHeader,
  postWebhook,
  fetchSender,
  USER_AGENT,
  DEFAULT_DELIVERY_TIMEOUT_MS,
  MAX_RESPONSE_PREFIX_BYTES,
  RESPONSE_BODY_PREFIX_BYTES,
  type AttemptResult,
  type WebhookAnswer,
  type WebhookSend,
  type WebhookSendRequest,
} from "../webhooks/post-webhook.js";
export {
  hmacKey,
  importHmacKey,
  hmacSha256Hex,
  verifyHmacSha256Hex,
  signedPayload,
  type HmacKey,
} from "../crypto/hmac.js";
export {
  addressRefusal,
  checkDestination,
  checkUrlShape,
  NEEDS_LOOKUP,
  verdictWithoutLookup,
  type DestinationPolicy,
  type HostResolver,
} from "../webhooks/ssrf-guard.js";
export { classifyIp, type AddressClass } from "../webhooks/ip-ranges.js";
export { defaultRetryPolicy, nextAttemptAt, type RetryPolicy } from "../webhooks/retry-policy.js";
export { DEFAULT_SWEEP_INTERVAL_MS, type OutboxWorker, type OutboxWorkerOptions } from "../webhooks/outbox-worker.js";
export type { OutboxDispatcher } from "../webhooks/outbox-dispatcher.js";
export type { ClaimedDelivery } from "../ports/storage.js";
export { MIN_SECRET_LENGTH } from "../webhooks/subscription-input.js";
export type { SubscriptionService } from "../webhooks/subscription-service.js";
export type { ListPage, ListPage as Page } from "../http/list-page.js";
export type { SubscriptionView, DeliveryView } from "../webhooks/subscription-views.js";
export type { EndpointService, EndpointHealthView } from "../webhooks/endpoint-service.js";
export type { DeliveryPageOptions } from "../webhooks/delivery-filters.js";
export { TEST_EVENT_TYPE } from "../webhooks/test-delivery.js";
