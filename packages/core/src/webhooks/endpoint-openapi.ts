import { EVENT_TYPES } from "../events/event-types.js";
import { MAX_RECOVER_LIMIT } from "./endpoint-service.js";
import { TEST_EVENT_TYPE } from "./test-delivery.js";

type Schema = Record<string, unknown>;

/** The document's own helpers, so these paths read like the others. */
export interface OpenApiHelpers {
  json(schema: Schema): Schema;
  errors(...statuses: number[]): Schema;
  ref(name: string): Schema;
}

const nullable = (schema: Schema) => ({ anyOf: [schema, { type: "null" }] });
const time = { type: "string", format: "date-time" };

/** `last_attempt` on a subscription and in its health. */
export const lastAttemptSchema: Schema = nullable({
  type: "object",
  required: ["at", "succeeded", "status_code", "error"],
  properties: {
    at: time,
    succeeded: { type: "boolean" },
    status_code: nullable({ type: "integer" }),
    error: nullable({ type: "string" }),
  },
});

/** The history's filters and cursors, beside `limit` and `starting_after`. */
export const deliveryFilterParameters: Schema[] = [
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

const health: Schema = {
  type: "object",
  required: [
    "subscription_id",
    "state",
    "window",
    "attempts",
    "succeeded",
    "success_rate",
    "last_attempt",
    "failing_since",
  ],
  properties: {
    object: { type: "string", const: "webhook_endpoint_health" },
    subscription_id: { type: "string" },
    state: { type: "string", enum: ["healthy", "failing", "disabled", "idle"] },
    enabled: { type: "boolean" },
    disabled_reason: nullable({ type: "string" }),
    window: { type: "object", properties: { hours: { type: "integer", const: 24 }, since: time } },
    attempts: { type: "integer" },
    succeeded: { type: "integer" },
    failed: { type: "integer" },
    success_rate: {
      ...nullable({ type: "number", minimum: 0, maximum: 1 }),
      description: "Succeeded over all attempts in the window; null without attempts.",
    },
    last_attempt: lastAttemptSchema,
    failing_since: { ...nullable(time), description: "The first attempt of the current run of failures." },
    auto_disable_at: { ...nullable(time), description: "When it will be disabled if every attempt keeps failing." },
  },
};

/** Health, recovery and one delivery in full (endpoint-routes.ts). */
export function endpointApiPaths({ json, errors, ref }: OpenApiHelpers): Record<string, Schema> {
  const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
  const tags = ["webhooks"];
  return {
    "/v1/webhooks/{id}/health": {
      parameters: [id],
      get: {
        tags,
        operationId: "webhooks_health",
        summary: "Success rate over the last 24 hours, the last attempt and since when it has been failing.",
        security: [{ bearer: ["webhooks:read"] }],
        responses: { "200": { description: "Health.", content: json(health) }, ...errors(400, 401, 403, 404) },
      },
    },
    "/v1/webhooks/{id}/recover": {
      parameters: [id],
      post: {
        tags,
        operationId: "webhooks_recover",
        summary: `Resends every failed delivery created since a time, oldest first, at most limit (default 100, up to ${MAX_RECOVER_LIMIT}) per call.`,
        security: [{ bearer: ["webhooks:write"] }],
        requestBody: {
          required: true,
          content: json({
            type: "object",
            required: ["since"],
            additionalProperties: false,
            properties: { since: time, limit: { type: "integer", minimum: 1, maximum: MAX_RECOVER_LIMIT } },
          }),
        },
        responses: {
          "202": {
            description: "Requeued: due now. has_more: call again for the rest.",
            content: json({
              type: "object",
              required: ["requeued", "delivery_ids", "has_more"],
              properties: {
                object: { type: "string", const: "webhook_recovery" },
                subscription_id: { type: "string" },
                since: time,
                limit: { type: "integer" },
                requeued: { type: "integer" },
                delivery_ids: { type: "array", items: { type: "string" } },
                has_more: { type: "boolean" },
              },
            }),
          },
          ...errors(400, 401, 403, 404, 409, 413, 415, 422),
        },
      },
    },
    "/v1/webhooks/{id}/deliveries/{deliveryId}": {
      parameters: [id, { name: "deliveryId", in: "path", required: true, schema: { type: "string" } }],
      get: {
        tags,
        operationId: "webhooks_delivery",
        summary: "One delivery: the event as sent, every attempt with the request headers sent (signatures redacted).",
        security: [{ bearer: ["webhooks:read"] }],
        responses: {
          "200": {
            description: "The delivery.",
            content: json({
              allOf: [
                ref("Delivery"),
                {
                  type: "object",
                  properties: {
                    event: nullable({
                      type: "object",
                      properties: {
                        id: { type: "string" },
                        type: { type: "string" },
                        created: time,
                        data: { type: "object" },
                      },
                    }),
                  },
                },
              ],
            }),
          },
          ...errors(400, 401, 403, 404),
        },
      },
    },
  };
}
