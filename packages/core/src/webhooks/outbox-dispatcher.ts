import type { HmacKey } from "../crypto/hmac.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import { type Logger } from "../ports/logger.js";
import { describeError } from "../logging/loggers.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { ClaimCompletion, ClaimedDelivery, DeliveryOutcome, Storage } from "../ports/storage.js";
import type {
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookSubscriptionRecord,
} from "../ports/webhook-records.js";
import { countDelivery, tracedPostWebhook } from "./webhook-telemetry.js";
import { type AttemptResult, type WebhookSend } from "./post-webhook.js";
import { schemeKey, signatureHeaders, type SignatureScheme } from "./signing-schemes.js";
import { createCompletionBatcher } from "./completion-batcher.js";
import { GONE_REASON, recordGoneAttempt } from "./gone-receiver.js";
import { nextAttemptAt, type RetryPolicy } from "./retry-policy.js";
import { checkDestination, NEEDS_LOOKUP, verdictWithoutLookup, type DestinationPolicy } from "./ssrf-guard.js";
import { TIMED_OUT, withinDeadline } from "../within-deadline.js";
import { disableIfFailingTooLong } from "./endpoint-disable.js";
import { redactedHeaders } from "./sent-headers.js";
import { emitEvent } from "../events/emit-event.js";

export interface DispatcherOptions {
  storage: Storage;
  secretBox: SecretBox;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** How each signed POST goes out. */
  send: WebhookSend;
  destinations: DestinationPolicy;
  retry: RetryPolicy;
  headerPrefix: string;
  timeoutMs: number;
  /** How long a claim is exclusive; longer than `timeoutMs` plus bookkeeping. */
  leaseMs: number;
  /** Deliveries one worker has in flight at most. */
  concurrency: number;
  /** Of those, at most this many to one subscription, so a hanging receiver can't take every slot. */
  perSubscriptionConcurrency: number;
  /** Disable a subscription whose every attempt failed for this long (`webhooks.autoDisableAfterMs`); null: never. */
  autoDisableAfterMs?: number | null;
}

/** A delivery that can't be attempted and never will be: it ends `failed` without an attempt. */
interface Terminal {
  terminal: string;
}

/** What the history says of a 410 from a URL the subscription has left: retried like any failure. */
const MOVED_ON_410 = `${GONE_REASON} at a URL the subscription has since left; subscription kept enabled`;

/** The delivery's outcome fields as they stand: what a claim given back unattempted writes again. */
const asItStands = (delivery: WebhookDeliveryRecord): DeliveryOutcome => ({
  status: delivery.status,
  attemptCount: delivery.attemptCount,
  nextAttemptAt: delivery.nextAttemptAt,
  lastError: delivery.lastError,
  deliveredAt: delivery.deliveredAt,
});

/**
 * A claim's completion: the outcome (and the attempt, if one was made) written under the lease the
 * claim took, so it applies to nothing but that claim.
 */
const completionOf = (
  delivery: WebhookDeliveryRecord,
  workerId: string,
  outcome: DeliveryOutcome,
  attempt?: WebhookAttemptRecord,
): ClaimCompletion => ({
  deliveryId: delivery.id,
  workerId,
  leaseUntil: delivery.leaseUntil!,
  outcome,
  ...(attempt && { attempt }),
});

const idsOf = (delivery: WebhookDeliveryRecord) => ({
  deliveryId: delivery.id,
  subscriptionId: delivery.subscriptionId,
  eventId: delivery.eventId,
});

/**
 * Delivers claimed outbox rows: sign, POST, record the attempt, schedule the retry or finish.
 * Stateless apart from its options, so any number of workers may share one storage.
 */
export function createOutboxDispatcher(options: DispatcherOptions) {
  const { storage, clock } = options;
  const completions = createCompletionBatcher(storage.webhookDeliveries);
  // Opening a sealed secret and importing the HMAC key cost more than signing; keyed by the sealed
  // form, so a rotated secret is a new entry. Bounded so a long-lived worker can't grow it forever.
  // A subscription's scheme never changes, so the sealed form alone identifies the key.
  const signingKeys = new Map<string, Promise<HmacKey>>();
  const signingKey = (scheme: SignatureScheme, sealed: string): Promise<HmacKey> => {
    let key = signingKeys.get(sealed);
    if (key === undefined) {
      if (signingKeys.size >= 1000) signingKeys.clear();
      key = options.secretBox.open(sealed).then((secret) => schemeKey(scheme, secret));
      key.catch(() => signingKeys.delete(sealed));
      signingKeys.set(sealed, key);
    }
    return key;
  };
  /** The current secret's key, and the previous one's while a rotation's grace period runs. */
  const signingKeysOf = async (subscription: WebhookSubscriptionRecord, now: Date): Promise<HmacKey[]> => {
    const { signatureScheme: scheme, previousSealedSecret: previous, previousSecretExpiresAt: until } = subscription;
    const current = signingKey(scheme, subscription.sealedSecret);
    const rolling = previous !== null && until !== null && now.getTime() < Date.parse(until);
    return rolling ? Promise.all([current, signingKey(scheme, previous)]) : [await current];
  };

  /**
   * Per subscription URL: its parsed form and the part of the destination check that needs no DNS,
   * which depend on the URL and this dispatcher's policy alone. Kept rather than redone per
   * delivery: a receiver at an IP literal then costs no deadline, timer or abort signal per
   * attempt. Bounded like `signingKeys`.
   */
  const knownUrls = new Map<string, { url: URL; verdict: ReturnType<typeof verdictWithoutLookup> }>();
  const destinationOf = (href: string) => {
    let known = knownUrls.get(href);
    if (known === undefined) {
      if (knownUrls.size >= 1000) knownUrls.clear();
      const url = new URL(href);
      known = { url, verdict: verdictWithoutLookup(url, options.destinations) };
      knownUrls.set(href, known);
    }
    return known;
  };

  async function attempt({ delivery, event, subscription }: ClaimedDelivery): Promise<AttemptResult | Terminal> {
    if (subscription === null) return { terminal: "subscription deleted" };
    if (!subscription.enabled) return { terminal: `subscription disabled: ${subscription.disabledReason ?? "by API"}` };
    // An event is written in the same transaction as its deliveries and nothing deletes it, so a
    // missing one is lost data (a partial restore, a manual edit) that no retry brings back: the
    // delivery ends, loudly, because only an operator can tell what happened.
    if (event === null) {
      options.logger.error(idsOf(delivery), "webhook delivery failed for good: its event is missing");
      return { terminal: `event ${delivery.eventId} is missing` };
    }
    const { url, verdict } = destinationOf(subscription.url);
    // The DNS check (a resolver that never answers: a hostile or broken nameserver) runs on the
    // delivery's deadline too: unbounded, it held the delivery and its slot for as long as the
    // lookup hung, with no attempt recorded and the lease running out under it.
    const started = performance.now();
    // Past it, a lookup still waiting for a free slot in the resolver is dropped (the signal).
    const refused =
      verdict !== NEEDS_LOOKUP
        ? verdict
        : await withinDeadline((signal) => checkDestination(url, options.destinations, { signal }), options.timeoutMs);
    if (refused === TIMED_OUT) {
      const error = `timed out after ${options.timeoutMs} ms resolving ${url.hostname}`;
      return {
        ok: false,
        statusCode: null,
        durationMs: options.timeoutMs,
        error,
        failure: "timeout",
        responseBodyPrefix: null,
      };
    }
    if (refused !== null)
      return {
        ok: false,
        statusCode: null,
        durationMs: 0,
        error: `refused: ${refused}`,
        failure: "destination_refused",
        responseBodyPrefix: null,
      };
    const body = JSON.stringify({ id: event.id, type: event.type, created: event.created, data: event.data });
    const now = clock.now();
    const signed = await signatureHeaders({
      scheme: subscription.signatureScheme,
      keys: await signingKeysOf(subscription, now),
      eventId: event.id,
      unixSeconds: Math.floor(now.getTime() / 1000),
      body,
      headerPrefix: options.headerPrefix,
    });
    // What the check took counts too: the whole attempt keeps one deadline.
    const { send, headerPrefix, timeoutMs } = options;
    return tracedPostWebhook(
      {
        send,
        headerPrefix,
        timeoutMs,
        startedAt: started,
        url: url.href,
        body,
        signatureHeaders: signed,
        eventId: event.id,
      },
      delivery,
      url,
    );
  }

  /**
   * A fault on our side (the secret box key changed, storage hiccuped) is a failed attempt on the
   * normal retry schedule, so it heals once the fault is fixed; it is logged at error level
   * because only an operator can fix it. The history gets the error's message, which never
   * carries a secret (sealed or open).
   */
  function internalFailure(delivery: WebhookDeliveryRecord, error: unknown, started: number): AttemptResult {
    const message = error instanceof Error ? error.message : String(error);
    options.logger.error(
      { ...idsOf(delivery), error: describeError(error) },
      "webhook delivery failed on an internal error; retrying on the normal schedule",
    );
    return {
      ok: false,
      statusCode: null,
      durationMs: Math.round(performance.now() - started),
      error: `internal error: ${message.slice(0, 500)}`,
      failure: "internal",
      responseBodyPrefix: null,
    };
  }

  /** `moved`: a 410 came from a URL the subscription has since left, so it is retried like any failure. */
  function outcomeOf(
    delivery: WebhookDeliveryRecord,
    result: AttemptResult | Terminal,
    now: Date,
    moved = false,
  ): DeliveryOutcome {
    if ("terminal" in result) return { ...asItStands(delivery), status: "failed", lastError: result.terminal };
    const count = delivery.attemptCount + 1;
    if (result.ok)
      return {
        status: "succeeded",
        attemptCount: count,
        nextAttemptAt: delivery.nextAttemptAt,
        lastError: null,
        deliveredAt: now.toISOString(),
      };
    const gone = result.statusCode === 410;
    const disables = gone && !moved;
    // The backoff counts the failures since the last resend, which started a fresh schedule; `count`
    // (every attempt) keeps numbering the history. An adapter written before storage contract 11 has
    // no such field: its deliveries back off from the first attempt, as they did, instead of on NaN.
    const sinceResend = count - (delivery.attemptsBeforeResend ?? 0);
    const next = disables ? null : nextAttemptAt(options.retry, sinceResend, now, new Date(delivery.retryUntil));
    return {
      status: next === null ? "failed" : "pending",
      attemptCount: count,
      nextAttemptAt: (next ?? now).toISOString(),
      lastError: disables ? `${GONE_REASON}; subscription disabled` : gone ? MOVED_ON_410 : result.error,
      deliveredAt: null,
    };
  }

  /**
   * One line per attempt: info while it succeeds or will be retried, warn when the delivery ends
   * failed (only a person can act on it). Receiver URLs and bodies are never logged.
   */
  function logAttempt(delivery: WebhookDeliveryRecord, result: AttemptResult | Terminal, outcome: DeliveryOutcome) {
    // Built field by field, not spread together: one line per delivery, on the worker's hottest path.
    const fields: Record<string, unknown> = idsOf(delivery);
    fields.attempt = outcome.attemptCount;
    fields.outcome = outcome.status;
    if ("terminal" in result) fields.error = result.terminal;
    else {
      fields.statusCode = result.statusCode;
      fields.durationMs = result.durationMs;
      if (result.error !== null) fields.error = result.error;
    }
    if (outcome.status === "pending") fields.nextAttemptAt = outcome.nextAttemptAt;
    if (outcome.status === "failed") options.logger.warn(fields, "webhook delivery failed for good");
    else
      options.logger.info(
        fields,
        outcome.status === "succeeded" ? "webhook delivered" : "webhook attempt failed; retrying",
      );
  }

  /** After a recorded failure: disables the endpoint once it has failed every attempt for the period (endpoint-disable.ts). */
  async function autoDisable({ delivery, subscription }: ClaimedDelivery): Promise<void> {
    const afterMs = options.autoDisableAfterMs ?? null;
    if (afterMs === null || subscription === null) return;
    await disableIfFailingTooLong(options, { subscription, deliveryId: delivery.id, afterMs }).catch((error: unknown) =>
      // The next failure tries again: the check reads the claim's copy, which still says failing.
      options.logger.error(
        { ...idsOf(delivery), error: describeError(error) },
        "auto-disabling a failing webhook subscription failed; retried after its next failed attempt",
      ),
    );
  }

  /**
   * Subscriptions whose receiver answered 410 and whose disable is not written yet (with how many
   * such writes are under way): `claim` counts each as full, so nothing more is claimed for it.
   * Without this the worker claimed the subscription's next deliveries while the disable was being
   * written, and sent them to a receiver that had said it is gone.
   */
  const disabling = new Map<string, number>();

  /**
   * Attempts one claimed delivery and records the outcome; never rejects (errors are logged).
   * `attempted` is called once the attempt is over (answered, failed or timed out), before its
   * outcome is recorded: the worker frees the delivery's slot then (see outbox-worker.ts). Resolves
   * true after a 410, whose subscription no claim could take while its disable was written: the
   * caller claims again then, and that subscription's due deliveries end "subscription disabled".
   */
  async function deliver(claimed: ClaimedDelivery, workerId: string, attempted?: () => void): Promise<boolean> {
    const { delivery, subscription } = claimed;
    const attemptedAt = clock.now();
    const started = performance.now();
    const result = await attempt(claimed).catch((error: unknown) => internalFailure(delivery, error, started));
    const gone = subscription !== null && !("terminal" in result) && result.statusCode === 410;
    if (gone) disabling.set(delivery.subscriptionId, (disabling.get(delivery.subscriptionId) ?? 0) + 1);
    // After the 410 is marked: the freed slot may start a waiting delivery, which must not be this
    // subscription's.
    attempted?.();
    const now = clock.now();
    const outcome = outcomeOf(delivery, result, now);
    const record =
      "terminal" in result
        ? undefined
        : {
            id: options.ids(),
            deliveryId: delivery.id,
            number: outcome.attemptCount,
            attemptedAt: attemptedAt.toISOString(),
            statusCode: result.statusCode,
            durationMs: result.durationMs,
            error: result.error,
            responseBodyPrefix: result.responseBodyPrefix,
            requestHeaders: result.requestHeaders === undefined ? null : redactedHeaders(result.requestHeaders),
          };
    // A worker whose lease expired meanwhile writes nothing: the new holder owns the row. Outcome
    // and attempt are one atomic step, batched with other finished attempts (one statement on
    // PostgreSQL); a 410 also disables the subscription, in a transaction of its own, unless the
    // subscription has moved to another URL since (see gone-receiver.ts).
    // The claim's lease goes with it: a completion that stalls past the lease must not apply to this
    // worker's next claim of the same delivery.
    const completion = (decided: DeliveryOutcome) => completionOf(delivery, workerId, decided, record);
    const recorded = gone
      ? recordGoneAttempt(storage, options.logger, {
          delivery,
          sentTo: subscription.url,
          outcomeIf: (moved) => outcomeOf(delivery, result, now, moved),
          completion,
          at: now.toISOString(),
          onDisabled: (tx, disabled) =>
            emitEvent(tx, options, {
              workspaceId: delivery.workspaceId,
              type: "webhook_endpoint.disabled",
              data: {
                subscription_id: delivery.subscriptionId,
                trigger: "gone",
                disabled_reason: GONE_REASON,
                failing_since: disabled.failingSince ?? null,
                disabled_at: now.toISOString(),
              },
            }),
        })
      : completions.complete(completion(outcome)).then(() => outcome);
    let decided = outcome;
    try {
      decided = await recorded;
      logAttempt(delivery, result, decided);
      // Our own fault (the secret box key changed, storage hiccuped) says nothing about the
      // receiver: it never disables an endpoint, however long it lasts.
      const ourFault = "failure" in result && result.failure === "internal";
      if (!gone && record !== undefined && record.error !== null && !ourFault) await autoDisable(claimed);
    } catch (error) {
      // The lease runs out and another claim attempts it again: at least once, never lost.
      options.logger.error(
        { ...idsOf(delivery), workerId, error: describeError(error) },
        "recording a webhook attempt failed; the delivery is retried once its lease expires",
      );
    }
    countDelivery(decided.status, result);
    if (gone) {
      const left = disabling.get(delivery.subscriptionId)! - 1;
      if (left === 0) disabling.delete(delivery.subscriptionId);
      else disabling.set(delivery.subscriptionId, left);
    }
    return gone;
  }

  /**
   * Leases up to `limit` due deliveries to `workerId`, at most `perSubscriptionConcurrency` plus
   * `ahead` per subscription counting the ones the worker `held` already (attempting, or claimed
   * and waiting for a slot: see outbox-worker.ts). A subscription whose 410 is being recorded
   * counts as full.
   */
  async function claim(
    workerId: string,
    limit: number,
    held: Readonly<Record<string, number>> = {},
    ahead = 0,
  ): Promise<ClaimedDelivery[]> {
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + options.leaseMs).toISOString();
    const max = options.perSubscriptionConcurrency + ahead;
    const counted =
      disabling.size === 0 ? held : { ...held, ...Object.fromEntries([...disabling.keys()].map((id) => [id, max])) };
    const cap = { max, held: counted };
    const claimed = await storage.webhookDeliveries.claimDueDeliveries(
      now.toISOString(),
      limit,
      leaseUntil,
      workerId,
      cap,
    );
    // A subscription belongs to one workspace: this keeps a delivery from ever being sent with
    // another workspace's subscription, whatever the storage answered.
    return claimed.map(({ delivery, event, subscription }) => ({
      delivery,
      event,
      subscription: subscription?.workspaceId === delivery.workspaceId ? subscription : null,
    }));
  }

  /**
   * Whether a claimed delivery that waited for a slot may still be attempted: its lease must cover
   * the attempt's whole deadline with at least half the lease's bookkeeping margin to spare, so it
   * can't run out mid-attempt and let another worker send it too.
   */
  function leaseCovers({ delivery }: ClaimedDelivery): boolean {
    const left = Date.parse(delivery.leaseUntil!) - clock.now().getTime();
    return left > options.timeoutMs + (options.leaseMs - options.timeoutMs) / 2;
  }

  /**
   * Gives a claimed delivery back unattempted: its lease is cleared and nothing else changes, so it
   * is due again at once for any worker. Resolves whether it was (false: the lease had run out).
   */
  function release({ delivery }: ClaimedDelivery, workerId: string): Promise<boolean> {
    return completions.complete(completionOf(delivery, workerId, asItStands(delivery)));
  }

  return {
    claim,
    deliver,
    leaseCovers,
    release,
    /** A subscription whose receiver answered 410 and whose disable is being written: send it nothing. */
    isHeldBack: (subscriptionId: string) => disabling.has(subscriptionId),
    /** Claims one batch of due deliveries for `workerId` and attempts them all; returns how many. */
    async runOnce(workerId: string): Promise<number> {
      const claimed = await claim(workerId, options.concurrency);
      await Promise.all(claimed.map((d) => deliver(d, workerId)));
      return claimed.length;
    },
    concurrency: options.concurrency,
    perSubscriptionConcurrency: options.perSubscriptionConcurrency,
  };
}
export type OutboxDispatcher = ReturnType<typeof createOutboxDispatcher>;
