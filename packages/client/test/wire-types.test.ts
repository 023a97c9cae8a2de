import type { EventData, EventType } from "@vitrina/core";
import { describe, expectTypeOf, it } from "vitest";
import type { WebhookEnvelope, WebhookEvent, WebhookEventDataMap, WebhookEventType } from "../src/index.js";

// The client cannot depend on core or zod, so its wire types are written out by hand. These
// assertions are checked by `pnpm typecheck` (tsc reads this file): a field added, renamed or
// made nullable in core's event schemas fails the build until the client says the same.
describe("client wire types", () => {
  it("name exactly core's event types", () => {
    expectTypeOf<WebhookEventType>().toEqualTypeOf<EventType>();
  });

  it("type every event's data exactly as core's schema infers it", () => {
    expectTypeOf<WebhookEventDataMap["conversation.started"]>().toEqualTypeOf<EventData<"conversation.started">>();
    expectTypeOf<WebhookEventDataMap["conversation.escalated"]>().toEqualTypeOf<EventData<"conversation.escalated">>();
    expectTypeOf<WebhookEventDataMap["quote.created"]>().toEqualTypeOf<EventData<"quote.created">>();
    expectTypeOf<WebhookEventDataMap["quote.accepted"]>().toEqualTypeOf<EventData<"quote.accepted">>();
    expectTypeOf<WebhookEventDataMap["order.confirmed"]>().toEqualTypeOf<EventData<"order.confirmed">>();
    expectTypeOf<WebhookEventDataMap["payment.succeeded"]>().toEqualTypeOf<EventData<"payment.succeeded">>();
    expectTypeOf<WebhookEventDataMap["agent.run.completed"]>().toEqualTypeOf<EventData<"agent.run.completed">>();
    expectTypeOf<WebhookEventDataMap["policy.blocked"]>().toEqualTypeOf<EventData<"policy.blocked">>();
    expectTypeOf<WebhookEventDataMap["webhook_endpoint.disabled"]>().toEqualTypeOf<
      EventData<"webhook_endpoint.disabled">
    >();
  });

  it("narrow data on the event type", () => {
    const handle = (event: WebhookEvent) => {
      if (event.type === "payment.succeeded") expectTypeOf(event.data.amount).toEqualTypeOf<number>();
      if (event.type === "policy.blocked") expectTypeOf(event.data.agent_id).toEqualTypeOf<string | null>();
    };
    expectTypeOf(handle).parameter(0).toEqualTypeOf<WebhookEvent>();
    expectTypeOf<WebhookEnvelope<"quote.created">["data"]["items"][number]["sku"]>().toEqualTypeOf<string>();
  });
});
