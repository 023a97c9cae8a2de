import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes } from "@opentelemetry/api";
import type { DeliveryStatus, WebhookDeliveryRecord } from "../ports/webhook-records.js";
import { postWebhook, type AttemptResult } from "./post-webhook.js";
import { instruments } from "../telemetry/metrics.js";
import { withSpan } from "../telemetry/tracing.js";

/** The dispatcher's result for a delivery that ended without an attempt (subscription gone…). */
type Ended = { terminal: string };

/**
 * The low-cardinality `error.type` of a failed attempt: the HTTP status for an answer, `timeout`,
 * the socket error code (`ECONNREFUSED`), `destination_refused` by the SSRF guard, `internal` for
 * our own fault, `not_attempted` when the delivery ended before any POST; null on success.
 */
export function deliveryErrorType(result: AttemptResult | Ended): string | null {
  if ("terminal" in result) return "not_attempted";
  switch (result.failure) {
    case null:
      return null;
    case "status":
      return String(result.statusCode);
    case "network": {
      // Only a socket code's shape keeps the attribute's cardinality low, whatever a sender threw.
      const code = result.networkCode ?? "";
      return /^[A-Z][A-Z0-9_]+$/.test(code) ? code : "_OTHER";
    }
    default:
      return result.failure;
  }
}

/** Counts a finished delivery step in `vitrina.webhook.deliveries` by the status it left behind. */
export function countDelivery(status: DeliveryStatus, result: AttemptResult | Ended): void {
  const outcome = status === "pending" ? "retry_scheduled" : status;
  const type = deliveryErrorType(result);
  instruments().deliveries.add(1, { "vitrina.webhook.outcome": outcome, ...(type !== null && { "error.type": type }) });
}

/**
 * One webhook POST as an HTTP CLIENT span (semantic conventions: `http.request.method`,
 * `server.address`, `server.port`, `http.response.status_code`, `http.request.resend_count`),
 * with its W3C `traceparent` injected into the request so the receiver can continue the trace,
 * and its duration in `vitrina.webhook.delivery.duration`. The URL is left out: its path or query
 * may carry the receiver's token.
 */
export function tracedPostWebhook(
  request: Parameters<typeof postWebhook>[0],
  delivery: WebhookDeliveryRecord,
  /** `request.url` parsed, when the caller has it already. */
  url = new URL(request.url),
): Promise<AttemptResult> {
  const attributes: Attributes = {
    "http.request.method": "POST",
    "server.address": url.hostname.replace(/^\[(.*)\]$/, "$1"),
    "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
    "url.scheme": url.protocol.slice(0, -1),
    "vitrina.webhook.delivery.id": delivery.id,
    "vitrina.webhook.subscription.id": delivery.subscriptionId,
    "vitrina.event.type": delivery.eventType,
  };
  if (delivery.attemptCount > 0) attributes["http.request.resend_count"] = delivery.attemptCount;
  return withSpan(
    "POST",
    attributes,
    async (span) => {
      const headers: Record<string, string> = {};
      propagation.inject(trace.setSpan(context.active(), span), headers);
      const result = await postWebhook({ ...request, headers });
      const type = deliveryErrorType(result);
      const measured: Attributes = {};
      if (result.statusCode !== null) measured["http.response.status_code"] = result.statusCode;
      if (type !== null) {
        measured["error.type"] = type;
        span.setStatus({ code: SpanStatusCode.ERROR, message: type });
      }
      span.setAttributes(measured);
      instruments().deliveryDuration.record(result.durationMs / 1000, measured);
      return result;
    },
    { kind: SpanKind.CLIENT },
  );
}
