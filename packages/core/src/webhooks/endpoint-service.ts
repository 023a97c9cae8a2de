import { ConflictError, NotFoundError, ValidationError } from "../errors.js";
import { RETRY_WINDOW_MS } from "../events/emit-event.js";
import type { Clock } from "../ports/clock.js";
import type { Logger } from "../ports/logger.js";
import type { Storage } from "../ports/storage.js";
import type { WebhookSubscriptionRecord } from "../ports/webhook-records.js";
import { deliveryView, lastAttemptView } from "./subscription-views.js";

/** The success rate's window: the last 24 hours, the span a delivery is retried over. */
export const HEALTH_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Most deliveries one recovery call requeues unless it asks for fewer. */
export const DEFAULT_RECOVER_LIMIT = 100;
/** Most deliveries one recovery call may requeue: a bigger backlog takes several calls (`has_more`). */
export const MAX_RECOVER_LIMIT = 1000;

export type EndpointState = "healthy" | "failing" | "disabled" | "idle";

/**
 * Health, recovery and one delivery in full, for the subscriptions of one workspace (the routes in
 * endpoint-routes.ts, the console and the CLI call these; callers are already authorised).
 */
export function createEndpointService(deps: {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  /** `webhooks.autoDisableAfterMs` as resolved (null: never), to say when a failing endpoint will be disabled. */
  autoDisableAfterMs: number | null;
}) {
  const { storage, clock } = deps;

  async function load(workspaceId: string, id: string): Promise<WebhookSubscriptionRecord> {
    const found = await storage.webhookSubscriptions.get(workspaceId, id);
    if (found === null) throw new NotFoundError(`webhook subscription ${id} does not exist`);
    return found;
  }

  function healthView(s: WebhookSubscriptionRecord, counts: { attempts: number; succeeded: number }, now: Date) {
    const failingSince = s.failingSince ?? null;
    const last = lastAttemptView(s);
    const state: EndpointState = !s.enabled
      ? "disabled"
      : failingSince !== null
        ? "failing"
        : last === null
          ? "idle"
          : "healthy";
    const disableAt =
      s.enabled && failingSince !== null && deps.autoDisableAfterMs !== null
        ? new Date(Date.parse(failingSince) + deps.autoDisableAfterMs).toISOString()
        : null;
    return {
      object: "webhook_endpoint_health" as const,
      subscription_id: s.id,
      state,
      enabled: s.enabled,
      disabled_reason: s.disabledReason,
      window: { hours: HEALTH_WINDOW_MS / 3_600_000, since: new Date(now.getTime() - HEALTH_WINDOW_MS).toISOString() },
      attempts: counts.attempts,
      succeeded: counts.succeeded,
      failed: counts.attempts - counts.succeeded,
      /** Succeeded attempts over all attempts in the window, 0 to 1; null when there were none. */
      success_rate: counts.attempts === 0 ? null : Math.round((counts.succeeded / counts.attempts) * 10_000) / 10_000,
      last_attempt: last,
      failing_since: failingSince,
      auto_disable_at: disableAt,
    };
  }
  type HealthView = ReturnType<typeof healthView>;

  async function healthOf(workspaceId: string, subscriptions: WebhookSubscriptionRecord[]): Promise<HealthView[]> {
    const now = clock.now();
    const since = new Date(now.getTime() - HEALTH_WINDOW_MS).toISOString();
    const ids = subscriptions.map((s) => s.id);
    const counts = ids.length === 0 ? [] : await storage.webhookDeliveries.attemptCounts(workspaceId, ids, since);
    const byId = new Map(counts.map((c) => [c.subscriptionId, c]));
    return subscriptions.map((s) => healthView(s, byId.get(s.id) ?? { attempts: 0, succeeded: 0 }, now));
  }

  return {
    /** One endpoint's health: success rate over the last 24 h, last attempt, failing since. */
    async health(workspaceId: string, id: string): Promise<HealthView> {
      return (await healthOf(workspaceId, [await load(workspaceId, id)]))[0]!;
    },

    /** Every endpoint's health, oldest subscription first (the console's list, one count query). */
    async healthOfAll(workspaceId: string): Promise<HealthView[]> {
      return healthOf(workspaceId, await storage.webhookSubscriptions.listByWorkspace(workspaceId));
    },

    /**
     * Resends every failed delivery of the endpoint created at or after `since`, oldest first, at
     * most `limit` (default 100, at most 1000) per call; `has_more` says call again. Each requeued
     * delivery is due at once with a fresh 24-hour retry window, as a single resend gives it. Only
     * deliveries that are `failed` when written are taken, so a second call (even a concurrent one)
     * never requeues what the first did: what it requeued is `pending` by then.
     */
    async recover(workspaceId: string, id: string, body: unknown, call: { logger?: Logger } = {}) {
      const logger = call.logger ?? deps.logger;
      const { since, limit } = refusalsLogged(logger, { workspaceId, subscriptionId: id }, "webhook recovery", () =>
        checkedRecovery(body, clock.now()),
      );
      const subscription = await load(workspaceId, id);
      if (!subscription.enabled) {
        logger.info({ workspaceId, subscriptionId: id }, "webhook recovery refused: the subscription is disabled");
        throw new ConflictError("the subscription is disabled; enable it before recovering its deliveries");
      }
      const now = clock.now();
      const retryUntil = new Date(now.getTime() + RETRY_WINDOW_MS).toISOString();
      const { requeued, more } = await storage.webhookDeliveries.requeueFailed(workspaceId, id, {
        since,
        limit,
        now: now.toISOString(),
        retryUntil,
      });
      logger.info(
        { workspaceId, subscriptionId: id, since, limit, requeued: requeued.length, hasMore: more },
        "webhook recovery requeued failed deliveries",
      );
      return {
        object: "webhook_recovery" as const,
        subscription_id: id,
        since,
        limit,
        requeued: requeued.length,
        delivery_ids: requeued.map((d) => d.id),
        has_more: more,
      };
    },

    /**
     * One delivery in full: every attempt with the request headers it was sent with (signatures
     * redacted, see sent-headers.ts) and the receiver's answer, and the event as sent
     * (`{ id, type, created, data }`, the exact body); `event` is null when the event is gone.
     */
    async delivery(workspaceId: string, id: string, deliveryId: string) {
      await load(workspaceId, id);
      const delivery = await storage.webhookDeliveries.get(workspaceId, deliveryId);
      if (delivery === null || delivery.subscriptionId !== id)
        throw new NotFoundError(`delivery ${deliveryId} does not exist`);
      const [attempts, event] = await Promise.all([
        storage.webhookAttempts.listByDeliveries([deliveryId]),
        storage.events.get(delivery.eventId),
      ]);
      const view = deliveryView(delivery, attempts);
      return {
        ...view,
        attempts: view.attempts.map((a, i) => ({ ...a, request_headers: attempts[i]!.requestHeaders ?? null })),
        event:
          event === null || event.workspaceId !== workspaceId
            ? null
            : { id: event.id, type: event.type, created: event.created, data: event.data },
      };
    },
  };
}
export type EndpointService = ReturnType<typeof createEndpointService>;
export type EndpointHealthView = Awaited<ReturnType<EndpointService["health"]>>;

/**
 * Runs a check and, when it refuses the input, logs which fields at info level (never their values,
 * which may be anything a caller typed) before rethrowing: an operator can see refused calls.
 */
export function refusalsLogged<T>(logger: Logger, context: Record<string, unknown>, what: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ValidationError)
      logger.info({ ...context, fields: error.reasons.map((r) => r.field) }, `${what} refused: invalid input`);
    throw error;
  }
}

/** `since` (an ISO 8601 time, not in the future) and `limit` (1 to 1000) of a recovery, else 422 naming the field. */
function checkedRecovery(input: unknown, now: Date): { since: string; limit: number } {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw new ValidationError("recovery request is invalid", [{ field: "body", reason: "must be a JSON object" }]);
  const body = input as Record<string, unknown>;
  const reasons: { field: string; reason: string }[] = Object.keys(body)
    .filter((key) => key !== "since" && key !== "limit")
    .map((field) => ({ field, reason: "unknown field; known: since, limit" }));
  const raw = body.since;
  const parsed = typeof raw === "string" && /^\d{4}-\d{2}-\d{2}T/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(parsed))
    reasons.push({ field: "since", reason: "must be an ISO 8601 date-time, like 2026-11-20T00:00:00Z" });
  else if (parsed > now.getTime()) reasons.push({ field: "since", reason: "must not be in the future" });
  const limit = body.limit ?? DEFAULT_RECOVER_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_RECOVER_LIMIT)
    reasons.push({ field: "limit", reason: `must be an integer from 1 to ${MAX_RECOVER_LIMIT}` });
  if (reasons.length > 0) throw new ValidationError("recovery request is invalid", reasons);
  return { since: new Date(parsed).toISOString(), limit: limit as number };
}
