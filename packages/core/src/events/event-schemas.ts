import { z } from "zod";
import type { EventType } from "./event-types.js";

const id = z.string().min(1);
const money = z.number().finite().nonnegative();
const currency = z.string().regex(/^[A-Z]{3}$/, "ISO 4217 code, e.g. CLP");
const timestamp = z.iso.datetime();

/**
 * The `data` of each event type. `order.confirmed` is the spec's shape exactly; the other seven
 * are ours (documented in the core README). Keys are snake_case like the rest of the wire format.
 */
export const eventDataSchemas = {
  "conversation.started": z.strictObject({
    conversation_id: id,
    contact_id: id,
    channel: z.string().min(1).describe("whatsapp, web, email, …"),
    started_by: z.enum(["contact", "agent", "human", "lead_intake"]),
  }),
  "conversation.escalated": z.strictObject({
    conversation_id: id,
    contact_id: id,
    channel: z.string().min(1),
    reason: z.string().min(1),
    escalated_by: id.describe("agent id"),
    assigned_to: id.nullable().describe("user id of the person who takes over, when known"),
  }),
  "quote.created": z.strictObject({
    quote_id: id,
    contact_id: id,
    conversation_id: id.nullable(),
    currency,
    items: z.array(
      z.strictObject({ sku: id, quantity: z.number().int().positive(), unit_price: money, line_total: money }),
    ),
    subtotal: money,
    vat_rate: z.number().min(0).max(1).describe("fraction, 0.19 for 19 %"),
    vat: money,
    total: money,
  }),
  "quote.accepted": z.strictObject({ quote_id: id, contact_id: id, total: money, currency, accepted_at: timestamp }),
  "order.confirmed": z.strictObject({
    order_id: id,
    contact_id: id,
    total: money,
    currency,
    decided_by: id.describe("agent id"),
    approved_by: id.describe("user id"),
  }),
  "payment.succeeded": z.strictObject({
    payment_id: id,
    order_id: id,
    contact_id: id,
    amount: money,
    currency,
    method: z.string().min(1),
    provider_reference: z.string().nullable(),
  }),
  // The two below are produced by the capability runtime (capabilities/agent-run.ts, policies.ts):
  // the schemas describe exactly what it emits, trace entries included (camelCase, as stored).
  "agent.run.completed": z.strictObject({
    run_id: id,
    agent_id: id,
    started_at: timestamp,
    completed_at: timestamp,
    trace: z.array(
      z.strictObject({
        capability: z.string().min(1),
        input: z.unknown(),
        outcome: z.enum(["ok", "error", "blocked"]),
        output: z.unknown().optional(),
        error: z.strictObject({ code: z.string(), message: z.string() }).optional(),
        taskId: id.optional().describe("set when a policy blocked the call"),
        startedAt: timestamp,
        durationMs: z.number().nonnegative(),
      }),
    ),
  }),
  "policy.blocked": z.strictObject({
    task_id: id.describe("the task created for a person to review"),
    capability: z.string().min(1).describe("the capability that was prevented"),
    reason: z.string().min(1),
    agent_id: id.nullable(),
    actor_id: id.nullable().describe("user on whose behalf the agent acted, when known"),
  }),
  // Emitted by the outbox (webhooks/endpoint-disable.ts, gone-receiver.ts) in the disable's own transaction.
  "webhook_endpoint.disabled": z.strictObject({
    subscription_id: id,
    trigger: z
      .enum(["failing", "gone"])
      .describe("failing: every attempt failed for webhooks.autoDisableAfterMs; gone: a 410"),
    disabled_reason: z.string().min(1),
    failing_since: timestamp.nullable().describe("the first attempt of the run of failures that ended in the disable"),
    disabled_at: timestamp,
  }),
} satisfies Record<EventType, z.ZodType>;

export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;

/** The envelope receivers get, for one type; `data` is that type's schema. */
export function eventEnvelopeSchema<T extends EventType>(type: T) {
  return z.strictObject({ id: id, type: z.literal(type), created: timestamp, data: eventDataSchemas[type] });
}

/** JSON Schema (draft 2020-12) of each event's envelope, keyed by type: publish these to receivers. */
export function eventJsonSchemas(): Record<EventType, Record<string, unknown>> {
  const out = {} as Record<EventType, Record<string, unknown>>;
  for (const type of Object.keys(eventDataSchemas) as EventType[]) {
    out[type] = { title: type, ...z.toJSONSchema(eventEnvelopeSchema(type)) } as Record<string, unknown>;
  }
  return out;
}

/** What `GET /v1/events/schemas` serves: every type a subscription may name, with its envelope's JSON Schema. */
export function eventSchemasDocument() {
  const schemas = eventJsonSchemas();
  return {
    events: (Object.keys(schemas) as EventType[]).map((type) => ({ type, schema: schemas[type] })),
  };
}
