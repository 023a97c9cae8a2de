/** Lead payload accepted by `POST …/functions/v1/lead-intake` (spec: "Lead payload"). */
export interface LeadPayload {
  /** Only `lead.created` is accepted. */
  event: "lead.created";
  /** Unique id in the sender's system; (connector, source_lead_id) is the idempotency key. */
  source_lead_id: string;
  contact: {
    /** E.164 with leading `+`. */
    phone_e164: string;
    name?: string;
    email?: string;
  };
  /** Attribution. */
  context?: {
    catalog_item_id?: string;
    source?: string;
    campaign_id?: string;
    landing_page?: string;
  };
  /**
   * Vertical-specific fields, e.g. `monthly_income` (CLP) for real estate. Numbers must be
   * finite and >= 0; text amounts and ranges are rejected with a reason.
   */
  qualification?: Record<string, number | string | boolean | null>;
  whatsapp_consent?: {
    granted: boolean;
    /** ISO 8601 UTC. */
    timestamp?: string;
    source?: string;
    purpose?: string;
  };
  /** Free-form tracing data; never treated as trusted qualification. */
  metadata?: Record<string, unknown>;
}

export type OutboundStatus = "sent" | "queued" | "blocked" | "failed";

/** 200 answer of lead intake (a duplicate also answers 200, with `duplicate: true`). */
export interface LeadIntakeResponse {
  accepted: boolean;
  duplicate: boolean;
  lead_event_id: string;
  contact_id: string;
  opportunity_id: string;
  eligible_for_whatsapp: boolean;
  outbound: { status: OutboundStatus; reason: string | null };
  qualification?: {
    recorded: { field: string; value: unknown }[];
    rejected: { field: string; reason: string }[];
  };
}

/** The event types a subscription can name: the spec's eight and `webhook_endpoint.disabled`. */
export type WebhookEventType = keyof WebhookEventDataMap;

// The `data` of each event, as core's event schemas (packages/core/src/events/event-schemas.ts)
// define it. The client ships without zod or core, so these are written out here;
// test/wire-types.test.ts fails the typecheck when one stops being equal to the schema's type.

export interface ConversationStartedData {
  conversation_id: string;
  contact_id: string;
  /** whatsapp, web, email, … */
  channel: string;
  started_by: "contact" | "agent" | "human" | "lead_intake";
}

export interface ConversationEscalatedData {
  conversation_id: string;
  contact_id: string;
  channel: string;
  reason: string;
  /** Agent id. */
  escalated_by: string;
  /** User id of the person who takes over, when known. */
  assigned_to: string | null;
}

export interface QuoteLine {
  sku: string;
  quantity: number;
  unit_price: number;
  line_total: number;
}

export interface QuoteCreatedData {
  quote_id: string;
  contact_id: string;
  conversation_id: string | null;
  /** ISO 4217 code, e.g. "CLP". */
  currency: string;
  items: QuoteLine[];
  subtotal: number;
  /** Fraction: 0.19 for 19 %. */
  vat_rate: number;
  vat: number;
  total: number;
}

export interface QuoteAcceptedData {
  quote_id: string;
  contact_id: string;
  total: number;
  currency: string;
  /** ISO 8601 UTC. */
  accepted_at: string;
}

export interface OrderConfirmedData {
  order_id: string;
  contact_id: string;
  total: number;
  /** Currency code, e.g. "CLP". */
  currency: string;
  /** Agent id that decided the order. */
  decided_by: string;
  /** User id that approved it. */
  approved_by: string;
}

export interface PaymentSucceededData {
  payment_id: string;
  order_id: string;
  contact_id: string;
  amount: number;
  currency: string;
  method: string;
  provider_reference: string | null;
}

/** One capability call of an agent run (camelCase, as the run recorded it). */
export interface AgentRunTraceEntry {
  capability: string;
  input: unknown;
  outcome: "ok" | "error" | "blocked";
  output?: unknown;
  error?: { code: string; message: string };
  /** Set when a policy blocked the call. */
  taskId?: string;
  startedAt: string;
  durationMs: number;
}

export interface AgentRunCompletedData {
  run_id: string;
  agent_id: string;
  started_at: string;
  completed_at: string;
  trace: AgentRunTraceEntry[];
}

export interface PolicyBlockedData {
  /** The task created for a person to review. */
  task_id: string;
  /** The capability that was prevented. */
  capability: string;
  reason: string;
  agent_id: string | null;
  /** User on whose behalf the agent acted, when known. */
  actor_id: string | null;
}

export interface WebhookEndpointDisabledData {
  subscription_id: string;
  /** `failing`: every attempt failed for the auto-disable period; `gone`: the receiver answered 410. */
  trigger: "failing" | "gone";
  disabled_reason: string;
  /** The first attempt of the run of failures that ended in the disable. */
  failing_since: string | null;
  disabled_at: string;
}

/** `data` per event type. */
export interface WebhookEventDataMap {
  "conversation.started": ConversationStartedData;
  "conversation.escalated": ConversationEscalatedData;
  "quote.created": QuoteCreatedData;
  "quote.accepted": QuoteAcceptedData;
  "order.confirmed": OrderConfirmedData;
  "payment.succeeded": PaymentSucceededData;
  "agent.run.completed": AgentRunCompletedData;
  "policy.blocked": PolicyBlockedData;
  "webhook_endpoint.disabled": WebhookEndpointDisabledData;
}

export interface WebhookEnvelope<T extends WebhookEventType = WebhookEventType> {
  /** Deduplicate on this: delivery is at least once. */
  id: string;
  type: T;
  /** ISO 8601 UTC; use it to order events, delivery order isn't guaranteed. */
  created: string;
  data: WebhookEventDataMap[T];
}

/** A verified event, discriminated on `type` so `switch (event.type)` narrows `data`. */
export type WebhookEvent = { [K in WebhookEventType]: WebhookEnvelope<K> }[WebhookEventType];
