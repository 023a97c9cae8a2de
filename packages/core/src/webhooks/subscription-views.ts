import type {
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookSubscriptionRecord,
} from "../ports/webhook-records.js";

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
    failing_since: s.failingSince ?? null,
    last_attempt: lastAttemptView(s),
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

/** The newest attempt to a subscription, from its row; null before any. */
export function lastAttemptView(s: WebhookSubscriptionRecord) {
  const at = s.lastAttemptAt ?? null;
  if (at === null) return null;
  const error = s.lastAttemptError ?? null;
  return { at, succeeded: error === null, status_code: s.lastAttemptStatusCode ?? null, error };
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
