import { z } from "zod";
import { EVENT_TYPES } from "../events/event-types.js";
import { bearerOperation, type OperationDoc } from "../http/route-doc.js";
import { MAX_RECOVER_LIMIT } from "./endpoint-service.js";
import { deliveryViewSchema, lastAttemptSchema } from "./subscription-views.js";
import { TEST_EVENT_TYPE } from "./test-delivery.js";

const timestamp = z.string().meta({ format: "date-time" });

/** The history's filters and cursors, beside `limit` and `starting_after`. */
export const deliveryFilterParameters = [
  {
    name: "ending_before",
    in: "query",
    schema: { type: "string" },
    description: "The page of newer deliveries above this one.",
  },
  { name: "status", in: "query", schema: { type: "string", enum: ["pending", "succeeded", "failed"] } },
  { name: "event_type", in: "query", schema: { type: "string", enum: [...EVENT_TYPES, TEST_EVENT_TYPE] } },
  { name: "event_id", in: "query", schema: { type: "string" }, description: "The delivery of one event." },
];

const healthSchema = z.object({
  object: z.literal("webhook_endpoint_health"),
  subscription_id: z.string(),
  state: z.enum(["healthy", "failing", "disabled", "idle"]),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  window: z.object({ hours: z.literal(24), since: timestamp }),
  attempts: z.int(),
  succeeded: z.int(),
  failed: z.int(),
  success_rate: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .meta({ description: "Succeeded over all attempts in the window; null without attempts." }),
  last_attempt: lastAttemptSchema,
  failing_since: timestamp.nullable().meta({ description: "The first attempt of the current run of failures." }),
  auto_disable_at: timestamp
    .nullable()
    .meta({ description: "When it will be disabled if every attempt keeps failing; null when not failing or never." }),
});

const recoverySchema = z.object({
  object: z.literal("webhook_recovery"),
  subscription_id: z.string(),
  since: timestamp,
  limit: z.int(),
  requeued: z.int(),
  delivery_ids: z.array(z.string()),
  has_more: z.boolean(),
});

/** The OpenAPI operations of endpoint-routes.ts, kept beside nothing else so the routes file stays short. */
export const endpointOperations: Record<"health" | "recover" | "delivery", OperationDoc> = {
  health: bearerOperation("webhooks", "webhooks:read", {
    operationId: "webhooks_health",
    summary: "Success rate over the last 24 hours, the last attempt and since when it has been failing.",
    responses: { "200": { description: "Health.", schema: healthSchema } },
    errors: [404],
  }),
  recover: bearerOperation("webhooks", "webhooks:write", {
    operationId: "webhooks_recover",
    summary: `Resends every failed delivery created since a time, oldest first, at most limit (default 100, up to ${MAX_RECOVER_LIMIT}) per call.`,
    requestBody: {
      required: true,
      schema: z.strictObject({ since: timestamp, limit: z.int().min(1).max(MAX_RECOVER_LIMIT).optional() }),
    },
    responses: {
      "202": { description: "Requeued: due now. has_more: call again for the rest.", schema: recoverySchema },
    },
    errors: [404, 409, 413, 415, 422],
  }),
  delivery: bearerOperation("webhooks", "webhooks:read", {
    operationId: "webhooks_delivery",
    summary: "One delivery: the event as sent, every attempt with the request headers sent (signatures redacted).",
    responses: {
      "200": {
        description: "The delivery.",
        schema: {
          allOf: [
            deliveryViewSchema,
            {
              type: "object",
              properties: {
                event: {
                  anyOf: [
                    {
                      type: "object",
                      properties: {
                        id: { type: "string" },
                        type: { type: "string" },
                        created: { type: "string", format: "date-time" },
                        data: { type: "object" },
                      },
                    },
                    { type: "null" },
                  ],
                },
              },
            },
          ],
        },
      },
    },
    errors: [404],
  }),
};
