import { z } from "zod";
import { EVENT_TYPES } from "../events/event-types.js";
import { namedSchema } from "../http/route-doc.js";
import type {
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookSubscriptionRecord,
} from "../ports/webhook-records.js";
import { SIGNATURE_SCHEMES } from "./signing-schemes.js";
import { TEST_EVENT_TYPE } from "./test-delivery.js";

/**
 * The wire shape of a subscription: snake_case, never a secret. `previous_secret_expires_at` is
 * when the secret replaced by the last rolling rotation stops signing (null when there is none).
 */
export function subscriptionView(s: WebhookSubscriptionRecord) {
  return {
    id: s.id,
    object: "webhook_subscription" as const,
    url: s.url,
    events: s.events,
    signature_scheme: s.signatureScheme,
    previous_secret_expires_at: s.previousSealedSecret === null ? null : s.previousSecretExpiresAt,
    enabled: s.enabled,
    disabled_reason: s.disabledReason,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}
export type SubscriptionView = ReturnType<typeof subscriptionView>;

/** The wire shape of a delivery with every attempt, oldest attempt first. */
export function deliveryView(d: WebhookDeliveryRecord, attempts: WebhookAttemptRecord[]) {
  return {
    id: d.id,
    object: "webhook_delivery" as const,
    subscription_id: d.subscriptionId,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempt_count: d.attemptCount,
    next_attempt_at: d.status === "pending" ? d.nextAttemptAt : null,
    retry_until: d.retryUntil,
    last_error: d.lastError,
    created_at: d.createdAt,
    delivered_at: d.deliveredAt,
    attempts: attempts.map((a) => ({
      number: a.number,
      attempted_at: a.attemptedAt,
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
      response_body_prefix: a.responseBodyPrefix ?? null,
    })),
  };
}
export type DeliveryView = ReturnType<typeof deliveryView>;

const timestamp = z.string().meta({ format: "date-time" });
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();

/** `subscriptionView`'s answer as the OpenAPI document publishes it (`secret` only when a create generated it). */
export const subscriptionViewSchema = namedSchema(
  "Subscription",
  z.object({
    id: z.string(),
    object: z.literal("webhook_subscription"),
    url: z.string().meta({ format: "uri" }),
    events: z.array(z.enum(EVENT_TYPES)),
    signature_scheme: z.enum(SIGNATURE_SCHEMES).meta({
      description:
        "vitrina: one <prefix>-Signature header (t=…,v1=<hex>). standard-webhooks: webhook-id, webhook-timestamp and webhook-signature (v1,<base64>). Set at creation, never changed.",
    }),
    previous_secret_expires_at: nullable(timestamp).meta({
      description:
        "Until this time deliveries are signed with the secret the last rotation replaced too (one more signature); null when there is none.",
    }),
    enabled: z.boolean(),
    disabled_reason: nullable(z.string()),
    created_at: timestamp,
    updated_at: timestamp,
    secret: z.string().optional().meta({
      description:
        "Only in the answer to a create that gave no secret (standard-webhooks): the generated whsec_ secret, shown this once.",
    }),
  }),
);

/** `deliveryView`'s answer as the OpenAPI document publishes it. */
export const deliveryViewSchema = namedSchema(
  "Delivery",
  z.object({
    id: z.string(),
    object: z.literal("webhook_delivery"),
    subscription_id: z.string(),
    event_id: z.string(),
    // A subscription's history also lists its test deliveries, which no subscription can choose.
    event_type: z.enum([...EVENT_TYPES, TEST_EVENT_TYPE]),
    status: z.enum(["pending", "succeeded", "failed"]),
    attempt_count: z.int(),
    next_attempt_at: nullable(timestamp),
    retry_until: timestamp,
    last_error: nullable(z.string()),
    created_at: timestamp,
    delivered_at: nullable(timestamp),
    attempts: z.array(
      z.object({
        number: z.int(),
        attempted_at: timestamp,
        status_code: nullable(z.int()),
        duration_ms: z.number(),
        error: nullable(z.string()),
        response_body_prefix: nullable(z.string()).meta({
          description: "The first 1024 bytes of the receiver's answer as UTF-8 text; null when no answer came.",
        }),
      }),
    ),
  }),
);
