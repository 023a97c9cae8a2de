export { createVitrina, DEFAULT_LEAD_BODY_LIMIT, DEFAULT_LEAD_TOLERANCE_MS } from "./vitrina.js";
export type { Vitrina, VitrinaOptions } from "./vitrina.js";
export * from "./errors.js";
export * from "./ports/records.js";
export type * from "./ports/oauth-records.js";
export type * from "./ports/commerce-records.js";
export type * from "./ports/webhook-records.js";
export type * from "./ports/storage.js";
export type * from "./ports/capability-records.js";
export type * from "./ports/capability-storage.js";
export type * from "./ports/inventory.js";
export type { MessagingTransport, OutgoingMessage, SendResult } from "./ports/messaging.js";
export { systemClock, createManualClock, type Clock, type ManualClock } from "./ports/clock.js";
export { randomUuid, type IdGenerator } from "./ports/ids.js";
export { type LogFields, type Logger, type LogMethod } from "./ports/logger.js";
export { childLogger, consoleLogger, defaultLogger, describeError, silentLogger } from "./logging/loggers.js";
export { type SecretBox } from "./ports/secret-box.js";
export { createAesGcmSecretBox } from "./crypto/aes-gcm-secret-box.js";
export {
  importHmacKey,
  hmacSha256Hex,
  verifyHmacSha256Hex,
  signedPayload,
  timingSafeEqualStrings,
} from "./crypto/hmac.js";
export { generateSecret, sha256Hex } from "./crypto/random.js";
export { bytesToHex, hexToBytes, utf8Bytes } from "./crypto/encoding.js";
export {
  createWorkspaceService,
  requireRole,
  type Actor,
  type WorkspaceService,
} from "./workspaces/workspace-service.js";
export {
  createConnectorService,
  type ConnectorService,
  type ConnectorView,
  type ConnectorWithSecret,
} from "./connectors/connector-service.js";
export { createContactService, type ContactService } from "./contacts/contact-service.js";
export { leadPayloadSchema, type LeadPayload } from "./leads/lead-schema.js";
export {
  evaluateQualification,
  defaultVerticals,
  type VerticalDefinitions,
  type QualificationOutcome,
} from "./leads/qualification.js";
export { defaultFirstMessage, decideFirstMessage, type FirstMessageOptions } from "./leads/first-message.js";
export type { LeadIntake, LeadIntakeResponse } from "./leads/lead-intake.js";
export type { LeadSignatureHeaders } from "./leads/verify-lead-signature.js";
export { whatsAppCloudTransport, type WhatsAppCloudOptions } from "./messaging/whatsapp-cloud.js";
export { logMessagingTransport } from "./messaging/log-transport.js";
export { createRouter, type Handler, type Route, type RouteHandler } from "./http/router.js";
export { jsonResponse, errorResponse, statusForCode } from "./http/json.js";
export { readBodyLimited, isJsonContentType } from "./http/read-body.js";
export { bodyTooLargeResponse, MCP_PATH } from "./http/body-too-large.js";
export { readJsonBody, decodeJsonBody, DEFAULT_MAX_JSON_DEPTH, type JsonBodyLimits } from "./http/read-json.js";
export { parseOrThrow, reasonsFromZod } from "./validation.js";
export {
  isStorableText,
  findUnstorableText,
  assertStorableText,
  UNSTORABLE_TEXT_REASON,
} from "./validation/storable-text.js";
export { EVENT_TYPES, isEventType, type EventType } from "./events/event-types.js";
export { emitEvent } from "./events/emit-event.js";
export * from "./oauth/index.js";
export {
  createCapabilityService,
  type CapabilityInput,
  type CapabilityInvoke,
  type CapabilityName,
  type CapabilityOptions,
  type CapabilityOutput,
  type CapabilityService,
} from "./capabilities/capability-service.js";
export { defineCapability } from "./capabilities/definition.js";
export type * from "./capabilities/definition.js";
export { createCapabilityRegistry, ATTEMPT_STATES, type CapabilityRegistry } from "./capabilities/registry.js";
export { type CapabilityPolicy, type PolicyContext, type PolicyDecision } from "./capabilities/policies.js";
export { DEFAULT_ATTEMPT_LEASE_MS } from "./capabilities/logical-attempt.js";
export { missingScopes } from "./auth/scopes.js";
export { BUILTIN_CAPABILITIES, DEFAULT_LIMITS, type BuiltinCapabilities } from "./capabilities/builtin/index.js";
export {
  CATALOG_DOCUMENT_VERSION,
  SURFACES,
  type CatalogDocument,
  type McpServerInfo,
  type SurfaceStatus,
} from "./capabilities/catalog-document.js";
export type { InvokeOptions, InvokeResult } from "./capabilities/runtime.js";
export type { AgentRun } from "./capabilities/agent-run.js";
export { seedDemoData } from "./capabilities/seed-demo-data.js";
export {
  eventDataSchemas,
  eventEnvelopeSchema,
  eventJsonSchemas,
  eventSchemasDocument,
  type EventData,
} from "./events/event-schemas.js";
export { publicJsonRoute, type PublicJsonRouteOptions } from "./http/public-json-route.js";
export { RETRY_WINDOW_MS } from "./events/emit-event.js";
export {
  runRetention,
  resolveRetention,
  type RetentionOptions,
  type RetentionReport,
  type RetentionSettings,
  type RetentionStep,
} from "./maintenance/retention.js";
export type { Maintenance, WorkerOptions } from "./maintenance/maintenance.js";
export {
  reconcileFirstMessages,
  resolveFirstMessageRecovery,
  OUTCOME_UNKNOWN_REASON,
  type FirstMessageRecoveryOptions,
  type FirstMessageRecoveryReport,
} from "./leads/reconcile-first-messages.js";
export { SCOPES, isScope, type Scope } from "./auth/scopes.js";
export {
  bearerToken,
  firstOf,
  requirePrincipal,
  requireScope,
  type Authenticator,
  type Principal,
  type OAuthPrincipal,
} from "./auth/principal.js";
export { createApiKeyService, API_KEY_PREFIX, type ApiKeyService, type ApiKeyView } from "./auth/api-keys.js";
export { createConversationService, type ConversationService } from "./conversations/conversation-service.js";
export { openConversation, type OpenConversationInput } from "./conversations/open-conversation.js";
export { createQuoteService, defaultVatRate, type QuoteService, type VatRate } from "./commerce/quote-service.js";
export { createOrderService, type OrderService } from "./commerce/order-service.js";
export { currencyDecimals, vatOf } from "./commerce/money.js";
export type { WebhookOptions } from "./webhooks/create-outbox.js";
export {
  addressRefusal,
  checkDestination,
  checkUrlShape,
  type DestinationPolicy,
  type HostResolver,
} from "./webhooks/ssrf-guard.js";
export { classifyIp, type AddressClass } from "./webhooks/ip-ranges.js";
export { defaultRetryPolicy, nextAttemptAt, type RetryPolicy } from "./webhooks/retry-policy.js";
export {
  signatureHeader,
  postWebhook,
  USER_AGENT,
  DEFAULT_DELIVERY_TIMEOUT_MS,
  type AttemptResult,
} from "./webhooks/post-webhook.js";
export { DEFAULT_SWEEP_INTERVAL_MS, type OutboxWorker, type OutboxWorkerOptions } from "./webhooks/outbox-worker.js";
export type { OutboxDispatcher } from "./webhooks/outbox-dispatcher.js";
export { MIN_SECRET_LENGTH } from "./webhooks/subscription-input.js";
export type { SubscriptionService, Page } from "./webhooks/subscription-service.js";
export type { SubscriptionView, DeliveryView } from "./webhooks/subscription-views.js";
export * from "./mcp/index.js";
export type { SendHumanMessageInput, SentHumanMessage } from "./conversations/send-human-message.js";
