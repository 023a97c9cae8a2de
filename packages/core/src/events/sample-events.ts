import type { EventData } from "./event-schemas.js";
import type { EventType } from "./event-types.js";

/**
 * A realistic `data` for each event type, for trying a receiver before real traffic (`vitrina
 * trigger`, the console's test event): the shapes and values a real lead, quote or order produce,
 * ids marked `sample_` so a receiver can tell them apart. Each is checked against its type's
 * published schema when the event is written, like every event.
 */
export function sampleEventData<T extends EventType>(type: T, id: (kind: string) => string, now: Date): EventData<T> {
  const iso = now.toISOString();
  const contact = id("contact");
  const conversation = id("conversation");
  const quote = id("quote");
  const order = id("order");
  // A 2-bedroom flat's reservation in Chilean pesos, VAT 19 %: the default demo's vertical.
  const subtotal = 2_500_000;
  const vat = 475_000;
  const total = subtotal + vat;
  const samples: { [K in EventType]: EventData<K> } = {
    "conversation.started": {
      conversation_id: conversation,
      contact_id: contact,
      channel: "whatsapp",
      started_by: "lead_intake",
    },
    "conversation.escalated": {
      conversation_id: conversation,
      contact_id: contact,
      channel: "whatsapp",
      reason: "the contact asked to talk to a person about financing",
      escalated_by: "agent_sales",
      assigned_to: "user_broker_1",
    },
    "quote.created": {
      quote_id: quote,
      contact_id: contact,
      conversation_id: conversation,
      currency: "CLP",
      items: [{ sku: "DEPTO-2D-RESERVA", quantity: 1, unit_price: subtotal, line_total: subtotal }],
      subtotal,
      vat_rate: 0.19,
      vat,
      total,
    },
    "quote.accepted": { quote_id: quote, contact_id: contact, total, currency: "CLP", accepted_at: iso },
    "order.confirmed": {
      order_id: order,
      contact_id: contact,
      total,
      currency: "CLP",
      decided_by: "agent_sales",
      approved_by: "user_owner",
    },
    "payment.succeeded": {
      payment_id: id("payment"),
      order_id: order,
      contact_id: contact,
      amount: total,
      currency: "CLP",
      method: "bank_transfer",
      provider_reference: "TRX-20261127-0042",
    },
    "agent.run.completed": {
      run_id: id("run"),
      agent_id: "agent_sales",
      started_at: new Date(now.getTime() - 1_200).toISOString(),
      completed_at: iso,
      trace: [
        {
          capability: "inventory.check",
          input: { sku: "DEPTO-2D-RESERVA" },
          outcome: "ok",
          output: { items: [{ sku: "DEPTO-2D-RESERVA", stock: 3, availability: "in_stock" }] },
          startedAt: new Date(now.getTime() - 1_100).toISOString(),
          durationMs: 38,
        },
      ],
    },
    "policy.blocked": {
      task_id: id("task"),
      capability: "orders.confirm",
      reason: "orders above 2,000,000 CLP need a person's approval",
      agent_id: "agent_sales",
      actor_id: null,
    },
    "webhook_endpoint.disabled": {
      subscription_id: id("whs"),
      trigger: "failing",
      disabled_reason: "failed every delivery attempt for 5 days",
      failing_since: new Date(now.getTime() - 5 * 86_400_000).toISOString(),
      disabled_at: iso,
    },
  };
  return samples[type];
}
