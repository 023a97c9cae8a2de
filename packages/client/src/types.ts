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

export type WebhookEventType =
  | "conversation.started"
  | "conversation.escalated"
  | "quote.created"
  | "quote.accepted"
  | "order.confirmed"
  | "payment.succeeded"
  | "agent.run.completed"
  | "policy.blocked";

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

/** `data` per event type; the spec only shows `order.confirmed`'s shape. */
export type WebhookEventDataMap = { [K in WebhookEventType]: Record<string, unknown> } & {
  "order.confirmed": OrderConfirmedData;
};

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
