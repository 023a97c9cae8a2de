/** The event types a subscriber can choose: the spec's eight ("Events"), then our own. */
export const EVENT_TYPES = [
  "conversation.started",
  "conversation.escalated",
  "quote.created",
  "quote.accepted",
  "order.confirmed",
  "payment.succeeded",
  "agent.run.completed",
  "policy.blocked",
  "webhook_endpoint.disabled",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
