import type { WebhookAttemptRecord, WebhookDeliveryRecord } from "@vitrina/core/storage";
import { iso, isoOrNull, num } from "../rows.js";

export const toDelivery = (r: any): WebhookDeliveryRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  subscriptionId: r.subscription_id,
  eventId: r.event_id,
  eventType: r.event_type,
  status: r.status,
  attemptCount: num(r.attempt_count),
  attemptsBeforeResend: num(r.attempts_before_resend),
  nextAttemptAt: iso(r.next_attempt_at),
  retryUntil: iso(r.retry_until),
  leaseUntil: isoOrNull(r.lease_until),
  leasedBy: r.leased_by,
  lastError: r.last_error,
  createdAt: iso(r.created_at),
  deliveredAt: isoOrNull(r.delivered_at),
});

export const toAttempt = (r: any): WebhookAttemptRecord => ({
  id: r.id,
  deliveryId: r.delivery_id,
  number: num(r.number),
  attemptedAt: iso(r.attempted_at),
  statusCode: r.status_code === null ? null : num(r.status_code),
  durationMs: num(r.duration_ms),
  error: r.error,
  responseBodyPrefix: r.response_body_prefix ?? null,
  // Absent when none were kept (an attempt recorded without them), as the record was written.
  ...(r.request_headers != null && { requestHeaders: r.request_headers }),
});
