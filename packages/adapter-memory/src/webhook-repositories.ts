import { ConflictError, type StorageRepositories } from "@vitrina/core";
import {
  dueOrder,
  fannedOutDelivery,
  type EventRecord,
  type WebhookAttemptRecord,
  type WebhookDeliveryRecord,
} from "@vitrina/core/storage";
import type { MemoryState } from "./state.js";
import type { UndoLog } from "./table.js";

type WebhookRepositories = Pick<
  StorageRepositories,
  "apiKeys" | "webhookSubscriptions" | "webhookDeliveries" | "webhookAttempts"
>;

const oldestFirst = <T extends { createdAt: string; id: string }>(a: T, b: T) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
/** The workspace's enabled subscriptions that chose `eventType`, oldest first. */
export function enabledSubscribers(state: MemoryState, workspaceId: string, eventType: string) {
  return state.webhookSubscriptions
    .filter((s) => s.workspaceId === workspaceId && s.enabled && s.events.includes(eventType))
    .sort(oldestFirst);
}

/** `events.appendAndFanOut`: the event, and one pending delivery per subscriber that chose its type. */
export function appendAndFanOut(
  state: MemoryState,
  undo: UndoLog,
  event: EventRecord,
  retryUntil: string,
): WebhookDeliveryRecord[] {
  state.events.insert(event, undo);
  return enabledSubscribers(state, event.workspaceId, event.type).map((subscription) => {
    const delivery = fannedOutDelivery(
      event,
      subscription.id,
      `whd_${crypto.randomUUID().replace(/-/g, "")}`,
      retryUntil,
    );
    state.webhookDeliveries.insert(delivery, undo);
    return delivery;
  });
}

/**
 * `completeClaims`' health write for one recorded attempt: the newest attempt wins, a success
 * clears `failingSince`, a failure sets it when not set (see WebhookDeliveryRepository.completeClaims).
 */
function recordHealth(state: MemoryState, undo: UndoLog, subscriptionId: string, attempt: WebhookAttemptRecord) {
  const subscription = state.webhookSubscriptions.get(subscriptionId);
  if (subscription === null) return;
  if ((subscription.lastAttemptAt ?? null) !== null && subscription.lastAttemptAt! > attempt.attemptedAt) return;
  const failed = attempt.error !== null;
  state.webhookSubscriptions.replace(
    {
      ...subscription,
      lastAttemptAt: attempt.attemptedAt,
      lastAttemptStatusCode: attempt.statusCode,
      lastAttemptError: attempt.error,
      failingSince: failed ? (subscription.failingSince ?? attempt.attemptedAt) : null,
    },
    undo,
  );
}

const newestFirst = <T extends { createdAt: string; id: string }>(a: T, b: T) => oldestFirst(b, a);
const leaseFree = (d: WebhookDeliveryRecord, now: string) => d.leaseUntil === null || d.leaseUntil <= now;

/**
 * API keys, subscriptions and the delivery outbox over one memory state. Claims are atomic
 * because every memory transaction runs alone under the storage mutex.
 */
export function createWebhookRepositories(state: MemoryState, undo: UndoLog): WebhookRepositories {
  const inWorkspace = <T extends { workspaceId: string }>(row: T | null, workspaceId: string) =>
    row?.workspaceId === workspaceId ? row : null;
  /** A resend or a recovery: due at `now`, unleased, with a fresh retry cycle (the backoff counts only the attempts from here on). */
  const dueAgain = (d: WebhookDeliveryRecord, now: string, retryUntil: string) => {
    const next = {
      ...d,
      status: "pending" as const,
      nextAttemptAt: now,
      retryUntil,
      attemptsBeforeResend: d.attemptCount,
      leaseUntil: null,
      leasedBy: null,
    };
    state.webhookDeliveries.replace(next, undo);
    return next;
  };
  return {
    apiKeys: {
      async insert(key) {
        state.apiKeys.insert(key, undo);
      },
      async findByHash(hash) {
        return state.apiKeys.lookup("hash", hash);
      },
      async get(workspaceId, id) {
        return inWorkspace(state.apiKeys.get(id), workspaceId);
      },
      async listByWorkspace(workspaceId) {
        return state.apiKeys.filter((k) => k.workspaceId === workspaceId).sort(oldestFirst);
      },
      async revoke(workspaceId, id, revokedAt) {
        const key = inWorkspace(state.apiKeys.get(id), workspaceId);
        if (key === null || key.revokedAt !== null) return key;
        const revoked = { ...key, revokedAt };
        state.apiKeys.replace(revoked, undo);
        return revoked;
      },
    },
    webhookSubscriptions: {
      async insert(subscription) {
        // Health is written by completeClaims only; a new subscription starts with none.
        const health = { failingSince: null, lastAttemptAt: null, lastAttemptStatusCode: null, lastAttemptError: null };
        state.webhookSubscriptions.insert({ ...subscription, ...health }, undo);
      },
      async get(workspaceId, id) {
        return inWorkspace(state.webhookSubscriptions.get(id), workspaceId);
      },
      async listByWorkspace(workspaceId) {
        return state.webhookSubscriptions.filter((s) => s.workspaceId === workspaceId).sort(oldestFirst);
      },
      async listEnabledForEvent(workspaceId, eventType) {
        return enabledSubscribers(state, workspaceId, eventType);
      },
      async patch(
        workspaceId,
        id,
        { onlyIfEnabled, onlyIfUrl, onlyIfFailingSince, previousSecretExpiresAt, ...changes },
      ) {
        const current = inWorkspace(state.webhookSubscriptions.get(id), workspaceId);
        if (current === null || (onlyIfEnabled === true && !current.enabled)) return null;
        if (onlyIfUrl !== undefined && current.url !== onlyIfUrl) return null;
        const failingSince = current.failingSince ?? null;
        if (onlyIfFailingSince !== undefined && (failingSince === null || failingSince > onlyIfFailingSince))
          return null;
        const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
        // A new secret either rolls (the stored one stays as the previous) or replaces at once.
        const rotation =
          changes.sealedSecret === undefined
            ? {}
            : {
                previousSealedSecret: previousSecretExpiresAt === undefined ? null : current.sealedSecret,
                previousSecretExpiresAt: previousSecretExpiresAt ?? null,
              };
        // A re-enable starts the endpoint's health afresh.
        const reset = changes.enabled === true && !current.enabled ? { failingSince: null } : {};
        const next = { ...current, ...given, ...rotation, ...reset };
        state.webhookSubscriptions.replace(next, undo);
        return next;
      },
      async delete(workspaceId, id) {
        if (inWorkspace(state.webhookSubscriptions.get(id), workspaceId) === null) return false;
        return state.webhookSubscriptions.delete(id, undo);
      },
    },
    webhookDeliveries: {
      async insert(delivery) {
        if (state.webhookDeliveries.conflictOf(delivery) !== null) {
          throw new ConflictError("this event already has a delivery to this subscription");
        }
        state.webhookDeliveries.insert(delivery, undo);
      },
      async get(workspaceId, id) {
        return inWorkspace(state.webhookDeliveries.get(id), workspaceId);
      },
      async claimDueDeliveries(now, limit, leaseUntil, workerId, cap) {
        const room = new Map<string, number>();
        const hasRoom = (d: WebhookDeliveryRecord) => {
          if (cap === undefined) return true;
          const left = room.get(d.subscriptionId) ?? cap.max - (cap.held[d.subscriptionId] ?? 0);
          room.set(d.subscriptionId, left - 1);
          return left > 0;
        };
        const due = state.webhookDeliveries.select(
          (d) =>
            d.status === "pending" &&
            d.nextAttemptAt <= now &&
            leaseFree(d, now) &&
            (cap?.held[d.subscriptionId] ?? 0) < (cap?.max ?? Infinity),
          dueOrder,
          limit,
          hasRoom,
          // Under a cap, look at most four times `limit` rows past the ones at their cap, as the
          // PostgreSQL claim does: a claim stops early instead of walking the whole backlog when
          // the only subscription with work has no room left (the worker claims again later).
          { within: { index: "status", value: "pending" }, examine: cap ? limit * 4 : limit },
        );
        return due.map((d) => {
          const delivery = { ...d, leaseUntil, leasedBy: workerId };
          state.webhookDeliveries.replace(delivery, undo);
          return {
            delivery,
            event: state.events.get(d.eventId),
            subscription: state.webhookSubscriptions.get(d.subscriptionId),
          };
        });
      },
      async completeClaims(completions) {
        return completions.map(({ deliveryId, workerId, leaseUntil, outcome, attempt }) => {
          const current = state.webhookDeliveries.get(deliveryId);
          // The lease too, not only the worker: the same worker may have claimed the row again.
          if (current === null || current.leasedBy !== workerId || current.leaseUntil !== leaseUntil) return false;
          state.webhookDeliveries.replace({ ...current, ...outcome, leaseUntil: null, leasedBy: null }, undo);
          if (attempt !== undefined) {
            state.webhookAttempts.insert(attempt, undo);
            recordHealth(state, undo, current.subscriptionId, attempt);
          }
          return true;
        });
      },
      async reschedule(workspaceId, id, now, retryUntil) {
        const current = inWorkspace(state.webhookDeliveries.get(id), workspaceId);
        if (current === null || !leaseFree(current, now)) return null;
        return dueAgain(current, now, retryUntil);
      },
      async outboxStats(now) {
        const pending = state.webhookDeliveries.filter((d) => d.status === "pending");
        const due = pending
          .filter((d) => d.nextAttemptAt <= now)
          .map((d) => d.nextAttemptAt)
          .sort();
        return { pending: pending.length, oldestDueAt: due[0] ?? null };
      },
      async listBySubscription(subscriptionId, options) {
        const rows = state.webhookDeliveries
          .filter(
            (d) =>
              d.subscriptionId === subscriptionId &&
              (options.status === undefined || d.status === options.status) &&
              (options.eventType === undefined || d.eventType === options.eventType) &&
              (options.eventId === undefined || d.eventId === options.eventId),
          )
          .sort(newestFirst);
        const limit = Math.max(0, options.limit);
        const cursorId = options.startingAfter ?? options.endingBefore;
        if (cursorId === undefined) return rows.slice(0, limit);
        // The cursor need not match the filters; an unknown one yields an empty page rather than the top.
        const cursor = state.webhookDeliveries.get(cursorId);
        if (cursor === null || cursor.subscriptionId !== subscriptionId) return [];
        if (options.startingAfter !== undefined) return rows.filter((d) => newestFirst(d, cursor) > 0).slice(0, limit);
        const newer = rows.filter((d) => newestFirst(d, cursor) < 0);
        return newer.slice(Math.max(0, newer.length - limit));
      },
      async requeueFailed(workspaceId, subscriptionId, { since, limit, now, retryUntil }) {
        const failed = state.webhookDeliveries
          .filter(
            (d) =>
              d.workspaceId === workspaceId &&
              d.subscriptionId === subscriptionId &&
              d.status === "failed" &&
              d.createdAt >= since,
          )
          .sort(oldestFirst);
        const requeued = failed.slice(0, Math.max(0, limit)).map((d) => dueAgain(d, now, retryUntil));
        return { requeued, more: failed.length > requeued.length };
      },
      async attemptCounts(workspaceId, subscriptionIds, since) {
        const wanted = new Set(subscriptionIds);
        const counts = new Map<string, { subscriptionId: string; attempts: number; succeeded: number }>();
        const deliveries = new Map(
          state.webhookDeliveries
            .filter((d) => d.workspaceId === workspaceId && wanted.has(d.subscriptionId))
            .map((d) => [d.id, d.subscriptionId]),
        );
        for (const a of state.webhookAttempts.filter((a) => deliveries.has(a.deliveryId) && a.attemptedAt >= since)) {
          const subscriptionId = deliveries.get(a.deliveryId)!;
          const count = counts.get(subscriptionId) ?? { subscriptionId, attempts: 0, succeeded: 0 };
          count.attempts++;
          if (a.error === null) count.succeeded++;
          counts.set(subscriptionId, count);
        }
        return [...counts.values()];
      },
    },
    webhookAttempts: {
      async insert(attempt) {
        state.webhookAttempts.insert(attempt, undo);
      },
      async listByDeliveries(deliveryIds) {
        const wanted = new Set(deliveryIds);
        return state.webhookAttempts
          .filter((a) => wanted.has(a.deliveryId))
          .sort((a, b) => a.deliveryId.localeCompare(b.deliveryId) || a.number - b.number);
      },
    },
  };
}
