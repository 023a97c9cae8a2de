import type { DeliveryState, ProviderStatus } from "../../ports/records.js";
import type { StatusReport } from "../../ports/whatsapp-storage.js";

/**
 * The delivery state machine. The provider reports `sent`, `delivered`, `read` and `failed` by
 * webhook, at least once, in any order (a multi-device user can report `delivered` after `failed`).
 * Vitrina keeps one timestamp per status (the first one reported) and derives the state from which
 * timestamps exist, by rank:
 *
 *     queued ──► sent ──► failed ──► delivered ──► read
 *
 * A higher rank wins whatever arrived first, so a status never moves a message backwards and a
 * duplicate changes nothing. `failed` ranks above `sent` (a message sent and then refused did not
 * arrive) and below `delivered` (a device that received it outweighs another that failed). Before
 * any report, a message the provider accepted stays `queued`.
 */
export const STATUS_RANK: Record<ProviderStatus, number> = { sent: 1, failed: 2, delivered: 3, read: 4 };

/** The state the timestamps say, or null when none is set. */
export function deliveryStatusOf(times: Pick<DeliveryState, "sentAt" | "deliveredAt" | "readAt" | "failedAt">) {
  if (times.readAt !== null) return "read" as const;
  if (times.deliveredAt !== null) return "delivered" as const;
  if (times.failedAt !== null) return "failed" as const;
  if (times.sentAt !== null) return "sent" as const;
  return null;
}

/** The earlier of two ISO times, either of which may be missing. */
function earliest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a <= b ? a : b;
}

/** One provider status as parsed from a webhook. */
export interface ParsedStatus {
  providerMessageId: string;
  status: ProviderStatus;
  at: string;
  failureCode: number | null;
  failureTitle: string | null;
}

/**
 * Folds a batch's statuses into one report per message (the earliest time per status, the first
 * failure's code): a batch may carry several statuses of one message, and storage merges each
 * message once per statement.
 */
export function foldStatuses(statuses: ParsedStatus[]): StatusReport[] {
  const byMessage = new Map<string, StatusReport>();
  for (const s of statuses) {
    const report = byMessage.get(s.providerMessageId) ?? {
      providerMessageId: s.providerMessageId,
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      failedAt: null,
      failureCode: null,
      failureTitle: null,
    };
    if (s.status === "sent") report.sentAt = earliest(report.sentAt, s.at);
    if (s.status === "delivered") report.deliveredAt = earliest(report.deliveredAt, s.at);
    if (s.status === "read") report.readAt = earliest(report.readAt, s.at);
    if (s.status === "failed") {
      if (report.failedAt === null || s.at < report.failedAt) {
        report.failureCode = s.failureCode;
        report.failureTitle = s.failureTitle;
      }
      report.failedAt = earliest(report.failedAt, s.at);
    }
    byMessage.set(s.providerMessageId, report);
  }
  return [...byMessage.values()];
}

/**
 * Merges a report into a stored state as storage does: first timestamp per status kept, first
 * failure kept, status derived. Adapters without SQL use it; PostgreSQL's statement mirrors it.
 */
export function mergeDelivery(stored: DeliveryState | null, report: StatusReport): DeliveryState {
  const keepFailure = stored?.failedAt != null;
  const times = {
    sentAt: stored?.sentAt ?? report.sentAt,
    deliveredAt: stored?.deliveredAt ?? report.deliveredAt,
    readAt: stored?.readAt ?? report.readAt,
    failedAt: stored?.failedAt ?? report.failedAt,
  };
  return {
    ...times,
    status: deliveryStatusOf(times) ?? "sent",
    failureCode: keepFailure ? (stored?.failureCode ?? null) : report.failureCode,
    failureTitle: keepFailure ? (stored?.failureTitle ?? null) : report.failureTitle,
  };
}
