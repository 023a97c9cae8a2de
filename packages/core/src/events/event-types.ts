/** The eight event types a subscriber can choose (spec "Events"). */
export const EVENT_TYPES = [
  "conversation.started",
  "conversation.escalated",
  "quote.created",
  "quote.accepted",
  "order.confirmed",
  "payment.succeeded",
  "agent.run.completed",
  "policy.blocked",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
