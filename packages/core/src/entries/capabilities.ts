// @vitrina/core/capabilities: the capability registry and runtime, the built-in capabilities and
// the catalog document, and the domain services they run on, for embedders composing their own.
export {
  createCapabilityService,
  type CapabilityInput,
  type CapabilityInvoke,
  type CapabilityName,
  type CapabilityOptions,
  type CapabilityOutput,
  type CapabilityService,
} from "../capabilities/capability-service.js";
export { defineCapability } from "../capabilities/definition.js";
export type * from "../capabilities/definition.js";
export { createCapabilityRegistry, ATTEMPT_STATES, type CapabilityRegistry } from "../capabilities/registry.js";
export type { CapabilityPolicy, PolicyContext, PolicyDecision } from "../capabilities/policies.js";
export { DEFAULT_ATTEMPT_LEASE_MS } from "../capabilities/logical-attempt.js";
export { BUILTIN_CAPABILITIES, DEFAULT_LIMITS, type BuiltinCapabilities } from "../capabilities/builtin/index.js";
export {
  CATALOG_DOCUMENT_VERSION,
  SURFACES,
  type CatalogDocument,
  type McpServerInfo,
  type SurfaceStatus,
} from "../capabilities/catalog-document.js";
export type { InvokeOptions, InvokeResult } from "../capabilities/runtime.js";
export type { AgentRun } from "../capabilities/agent-run.js";
export { SCOPES, isScope, missingScopes, type Scope } from "../auth/scopes.js";
export { requireRole, type Actor, type WorkspaceService } from "../workspaces/workspace-service.js";
export type { ConnectorService, ConnectorView, ConnectorWithSecret } from "../connectors/connector-service.js";
export type { ContactService } from "../contacts/contact-service.js";
export { createConversationService, type ConversationService } from "../conversations/conversation-service.js";
export type { QuoteService, VatRate } from "../commerce/quote-service.js";
export type { OrderService } from "../commerce/order-service.js";
export { currencyDecimals, vatOf } from "../commerce/money.js";
export { leadPayloadSchema, type LeadPayload } from "../leads/lead-schema.js";
export { evaluateQualification, defaultVerticals, type VerticalDefinitions } from "../leads/qualification.js";
export { defaultFirstMessage, decideFirstMessage, type FirstMessageOptions } from "../leads/first-message.js";
export type { LeadIntake, LeadIntakeResponse } from "../leads/lead-intake.js";
export type { LeadSignatureHeaders } from "../leads/verify-lead-signature.js";
export {
  runRetention,
  resolveRetention,
  type RetentionOptions,
  type RetentionReport,
  type RetentionSettings,
  type RetentionStep,
} from "../maintenance/retention.js";
export type { ApiKeyService, ApiKeyView } from "../auth/api-keys.js";
