import { importHmacKey } from "../crypto/hmac.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { DeliveryOutcome, Storage } from "../ports/storage.js";
import type { WebhookDeliveryRecord } from "../ports/webhook-records.js";
import { postWebhook, signatureHeader, type AttemptResult } from "./post-webhook.js";
import { nextAttemptAt, type RetryPolicy } from "./retry-policy.js";
import { checkDestination, type DestinationPolicy } from "./ssrf-guard.js";

export interface DispatcherOptions {
  storage: Storage;
  secretBox: SecretBox;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  fetch: typeof fetch;
  destinations: DestinationPolicy;
  retry: RetryPolicy;
  headerPrefix: string;
  timeoutMs: number;
  /** How long a claim is exclusive; longer than `timeoutMs` plus bookkeeping. */
  leaseMs: number;
  batchSize: number;
}

/**
 * Delivers claimed outbox rows: sign, POST, record the attempt, schedule the retry or finish.
 * Stateless apart from its options, so any number of workers may share one storage.
 */
export function createOutboxDispatcher(options: DispatcherOptions) {
  const { storage, clock } = options;
  // Opening a sealed secret and importing the HMAC key cost more than signing; keyed by the sealed
  // form, so a rotated secret is a new entry. Bounded so a long-lived worker can't grow it forever.
  const signingKeys = new Map<string, Promise<CryptoKey>>();
  const signingKey = (sealed: string): Promise<CryptoKey> => {
    let key = signingKeys.get(sealed);
    if (key === undefined) {
      if (signingKeys.size >= 1000) signingKeys.clear();
      key = options.secretBox.open(sealed).then(importHmacKey);
      key.catch(() => signingKeys.delete(sealed));
      signingKeys.set(sealed, key);
    }
    return key;
  };

  async function attempt(delivery: WebhookDeliveryRecord): Promise<AttemptResult | { skip: string }> {
    const subscription = await storage.webhookSubscriptions.get(delivery.workspaceId, delivery.subscriptionId);
    if (subscription === null) return { skip: "subscription deleted" };
    if (!subscription.enabled) return { skip: `subscription disabled: ${subscription.disabledReason ?? "by API"}` };
    const event = await storage.events.get(delivery.eventId);
    if (event === null) return { skip: `event ${delivery.eventId} is missing` };
    const url = new URL(subscription.url);
    const refused = await checkDestination(url, options.destinations);
    if (refused !== null) return { ok: false, statusCode: null, durationMs: 0, error: `refused: ${refused}` };
    const body = JSON.stringify({ id: event.id, type: event.type, created: event.created, data: event.data });
    const key = await signingKey(subscription.sealedSecret);
    const signature = await signatureHeader(key, Math.floor(clock.now().getTime() / 1000), body);
    return postWebhook({ ...options, url: url.href, body, signature, eventId: event.id });
  }

  async function deliver(delivery: WebhookDeliveryRecord, workerId: string): Promise<void> {
    const attemptedAt = clock.now();
    const result = await attempt(delivery).catch((error: unknown) => ({ skip: `internal error: ${String(error)}` }));
    const now = clock.now();
    const count = delivery.attemptCount + 1;
    let outcome: DeliveryOutcome;
    if ("skip" in result) {
      outcome = { status: "failed", attemptCount: delivery.attemptCount, nextAttemptAt: delivery.nextAttemptAt, lastError: result.skip, deliveredAt: null };
    } else if (result.ok) {
      outcome = { status: "succeeded", attemptCount: count, nextAttemptAt: delivery.nextAttemptAt, lastError: null, deliveredAt: now.toISOString() };
    } else {
      const gone = result.statusCode === 410;
      const next = gone ? null : nextAttemptAt(options.retry, count, now, new Date(delivery.retryUntil));
      outcome = {
        status: next === null ? "failed" : "pending",
        attemptCount: count,
        nextAttemptAt: (next ?? now).toISOString(),
        lastError: gone ? "receiver answered 410 Gone; subscription disabled" : result.error,
        deliveredAt: null,
      };
    }
    await storage.transaction(async (tx) => {
      // A worker whose lease expired meanwhile writes nothing: the new holder owns the row.
      if (!(await tx.webhookDeliveries.completeClaim(delivery.id, workerId, outcome))) return;
      if ("skip" in result) return;
      await tx.webhookAttempts.insert({
        id: options.ids(),
        deliveryId: delivery.id,
        number: count,
        attemptedAt: attemptedAt.toISOString(),
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
      });
      if (result.statusCode === 410) await disableSubscription(tx, delivery, now.toISOString());
    });
  }

  async function disableSubscription(tx: Parameters<Parameters<Storage["transaction"]>[0]>[0], delivery: WebhookDeliveryRecord, at: string) {
    const subscription = await tx.webhookSubscriptions.get(delivery.workspaceId, delivery.subscriptionId);
    if (subscription === null || !subscription.enabled) return;
    await tx.webhookSubscriptions.update({ ...subscription, enabled: false, disabledReason: "receiver answered 410 Gone", updatedAt: at });
    options.logger.warn("webhook subscription disabled after 410 Gone", { subscriptionId: subscription.id });
  }

  return {
    /** Claims one batch of due deliveries for `workerId` and attempts them all; returns how many. */
    async runOnce(workerId: string): Promise<number> {
      const now = clock.now();
      const leaseUntil = new Date(now.getTime() + options.leaseMs).toISOString();
      const claimed = await storage.webhookDeliveries.claimDueDeliveries(now.toISOString(), options.batchSize, leaseUntil, workerId);
      await Promise.all(claimed.map((d) => deliver(d, workerId)));
      return claimed.length;
    },
    batchSize: options.batchSize,
  };
}
export type OutboxDispatcher = ReturnType<typeof createOutboxDispatcher>;
