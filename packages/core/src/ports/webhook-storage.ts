import type { EventRecord } from "./records.js";
import type {
  ApiKeyRecord,
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookSubscriptionRecord,
} from "./webhook-records.js";

export interface ApiKeyRepository {
  insert(key: ApiKeyRecord): Promise<void>;
  /** The key whose SHA-256 is `hash`, revoked or not. */
  findByHash(hash: string): Promise<ApiKeyRecord | null>;
  get(workspaceId: string, id: string): Promise<ApiKeyRecord | null>;
  /** Oldest first. */
  listByWorkspace(workspaceId: string): Promise<ApiKeyRecord[]>;
  /** Sets `revokedAt` unless already revoked; returns the stored record, null when unknown. */
  revoke(workspaceId: string, id: string, revokedAt: string): Promise<ApiKeyRecord | null>;
}

/** The fields of a subscription that change after it is created. */
export interface SubscriptionPatch {
  url?: string;
  events?: string[];
  /**
   * A new secret. Without `previousSecretExpiresAt` it replaces the stored one at once and any
   * previous secret is dropped; with it, the secret stored until now becomes the previous one
   * (read in the same atomic step as the write, so two rotations racing each keep the secret the
   * other replaced, never a stale one) and signs too until that time.
   */
  sealedSecret?: string;
  /** Only with `sealedSecret`: keep the replaced secret signing until this time (a rolling rotation). */
  previousSecretExpiresAt?: string;
  enabled?: boolean;
  disabledReason?: string | null;
  /** Change nothing unless the subscription is enabled now (disabling after a 410 must not undo a re-enable's later state, nor act twice). */
  onlyIfEnabled?: boolean;
  /**
   * Change nothing unless the subscription's URL is this one now, checked in the same statement as
   * the write. A 410 disables only the URL that answered it: if the user moved the subscription
   * while that attempt was in flight, the new URL is another receiver and stays enabled.
   */
  onlyIfUrl?: string;
  /**
   * Change nothing unless the subscription's `failingSince` is set and at or before this time,
   * checked in the same statement (an auto-disable must not land after a success cleared it).
   * Separately, `enabled: true` on a disabled subscription clears `failingSince` in the same step.
   */
  onlyIfFailingSince?: string;
  updatedAt: string;
}

export interface WebhookSubscriptionRepository {
  insert(subscription: WebhookSubscriptionRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<WebhookSubscriptionRecord | null>;
  /** Oldest first. */
  listByWorkspace(workspaceId: string): Promise<WebhookSubscriptionRecord[]>;
  /** Enabled subscriptions of the workspace that chose `eventType`. */
  listEnabledForEvent(workspaceId: string, eventType: string): Promise<WebhookSubscriptionRecord[]>;
  /**
   * Sets only the given fields (and `updatedAt`) in one statement and returns the row as stored,
   * or null when there is no such subscription (or `onlyIfEnabled` and it is disabled, or
   * `onlyIfUrl` and its URL is another). Never a write-back of a row read earlier: a URL change
   * and a concurrent disable both stay applied.
   */
  patch(workspaceId: string, id: string, changes: SubscriptionPatch): Promise<WebhookSubscriptionRecord | null>;
  delete(workspaceId: string, id: string): Promise<boolean>;
}

/** What a worker writes back after an attempt. */
export interface DeliveryOutcome {
  status: WebhookDeliveryRecord["status"];
  attemptCount: number;
  nextAttemptAt: string;
  lastError: string | null;
  deliveredAt: string | null;
}

/** A delivery just leased by `claimDueDeliveries`, with its event and subscription. */
export interface ClaimedDelivery {
  /** As stored after the claim: leased to the claimer. */
  delivery: WebhookDeliveryRecord;
  /** Null when the event no longer exists (lost data: the worker ends the delivery, loudly). */
  event: EventRecord | null;
  /** The subscription with the delivery's `subscriptionId`, in any workspace; null when deleted. */
  subscription: WebhookSubscriptionRecord | null;
}

/** One finished attempt for `completeClaims`. */
export interface ClaimCompletion {
  deliveryId: string;
  /** The lease holder: nothing is written unless it still holds the lease. */
  workerId: string;
  /**
   * The `leaseUntil` of the claim the attempt was made under, as the claim returned it: nothing is
   * written unless the delivery still has that lease. The worker id alone can't tell a stale
   * completion from a current one: a completion that stalls past its lease can be overtaken by the
   * same worker's next claim of the delivery, whose attempt it would otherwise overwrite.
   */
  leaseUntil: string;
  outcome: DeliveryOutcome;
  /** The attempt for the history; absent when the delivery ended without one (subscription gone). */
  attempt?: WebhookAttemptRecord;
}

/** Keeps one subscription from taking every slot of a claimer's in-flight pool. */
export interface PerSubscriptionCap {
  /** Most deliveries of one subscription the claimer may hold at once. */
  max: number;
  /** Deliveries the claimer holds already, by subscription id; they count against `max`. */
  held: Readonly<Record<string, number>>;
}

/** The outbox at a glance, for the `vitrina.outbox.*` gauges. */
export interface OutboxStats {
  /** Deliveries in status `pending`: due, leased or waiting for their next retry. */
  pending: number;
  /** The earliest `nextAttemptAt` among pending deliveries due at `now`; null when none is due. */
  oldestDueAt: string | null;
}

/** Which deliveries of one subscription a history page holds, and where it starts. */
export interface DeliveryListOptions {
  limit: number;
  /** Older than this delivery (the next page down). */
  startingAfter?: string;
  /** Newer than this delivery (the page above); ignored with `startingAfter`. */
  endingBefore?: string;
  status?: WebhookDeliveryRecord["status"];
  eventType?: string;
  eventId?: string;
}

/** Attempts to one subscription since a time, for its success rate. */
export interface AttemptCount {
  subscriptionId: string;
  attempts: number;
  succeeded: number;
}

export interface WebhookDeliveryRepository {
  /** Fails with `conflict` when (eventId, subscriptionId) already has a delivery. */
  insert(delivery: WebhookDeliveryRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<WebhookDeliveryRecord | null>;
  /**
   * Atomically claims up to `limit` pending deliveries due at `now` whose lease is free or
   * expired, oldest due first (returned in `dueOrder`), and leases them to `workerId` until `leaseUntil`. Two concurrent
   * claimers never receive the same delivery (PostgreSQL: `FOR UPDATE SKIP LOCKED`). With `cap`,
   * a subscription gets at most `cap.max - cap.held[id]` of the claimed rows and one at its cap
   * none: its due rows are passed over, so others' rows behind them are claimed instead. Each
   * claimed delivery comes with what sending it needs, read in the same step: its event and its
   * subscription (by id; the worker checks the workspace), null when missing.
   */
  claimDueDeliveries(
    now: string,
    limit: number,
    leaseUntil: string,
    workerId: string,
    cap?: PerSubscriptionCap,
  ): Promise<ClaimedDelivery[]>;
  /**
   * Records finished attempts, several in one atomic step: for each completion whose `workerId`
   * still holds the delivery under the same lease (`leaseUntil`), writes the outcome, releases the
   * lease and records `attempt` when given. One whose lease expired and was taken over, by another
   * worker or by the same one claiming again, writes nothing. Answers, in the input's
   * order, whether each was recorded. A delivery appears at most once per call. The worker batches
   * completions that finish while an earlier batch is being written, so under load the outbox
   * costs one statement per batch rather than one per delivery.
   *
   * Each recorded attempt also updates its subscription's health in the same step (contract 17):
   * unless a newer attempt is already recorded there, `lastAttempt*` become this attempt's, and
   * `failingSince` is cleared by a success, or set by a failure when not set yet (to the first
   * failure after the batch's last success). Subscriptions are locked in id order, so two batches
   * touching the same subscriptions can't deadlock.
   */
  completeClaims(completions: readonly ClaimCompletion[]): Promise<boolean[]>;
  /**
   * Makes a delivery due again at `now` (resend) unless it is leased at `now`; null when unknown or
   * leased. Starts a fresh retry cycle in the same atomic step: `attemptsBeforeResend` becomes the
   * delivery's current `attemptCount` (on PostgreSQL, `attempts_before_resend = attempt_count` in the
   * one conditional `UPDATE`, never a read and then a write).
   */
  reschedule(workspaceId: string, id: string, now: string, retryUntil: string): Promise<WebhookDeliveryRecord | null>;
  /**
   * Counts pending deliveries and finds the longest-overdue one, for monitoring. Polled by metric
   * readers, so it must stay one cheap query (PostgreSQL: the partial index on pending rows).
   */
  outboxStats(now: string): Promise<OutboxStats>;
  /**
   * Newest first (createdAt, then id), only those matching every filter given: strictly older than
   * the `startingAfter` delivery, or else strictly newer than the `endingBefore` one (then the
   * `limit` newer ones closest to it, still answered newest first). An unknown cursor: empty page.
   */
  listBySubscription(subscriptionId: string, options: DeliveryListOptions): Promise<WebhookDeliveryRecord[]>;
  /**
   * Recovery: makes up to `limit` failed deliveries of the subscription created at or after `since`
   * due at `now` again, oldest first, each with a fresh retry cycle as `reschedule` gives it, in one
   * atomic step that re-checks `failed` on every row it writes: two concurrent calls never requeue
   * the same delivery (PostgreSQL: `FOR UPDATE SKIP LOCKED`, then a conditional `UPDATE`). `more`
   * says failed deliveries since `since` were left for another call.
   */
  requeueFailed(
    workspaceId: string,
    subscriptionId: string,
    options: { since: string; limit: number; now: string; retryUntil: string },
  ): Promise<{ requeued: WebhookDeliveryRecord[]; more: boolean }>;
  /** Attempts made at or after `since` to each of these subscriptions, and how many succeeded; absent when none. */
  attemptCounts(workspaceId: string, subscriptionIds: string[], since: string): Promise<AttemptCount[]>;
}

export interface WebhookAttemptRepository {
  insert(attempt: WebhookAttemptRecord): Promise<void>;
  /** Every attempt of these deliveries, oldest first within each. */
  listByDeliveries(deliveryIds: string[]): Promise<WebhookAttemptRecord[]>;
}
