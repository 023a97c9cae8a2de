import { VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { Logger } from "../ports/logger.js";
import type { RetentionCounts } from "../ports/retention-storage.js";
import type { Storage } from "../ports/storage.js";

const DAY_MS = 24 * 3600_000;

/** The `retention` option of `createVitrina`. Durations in days; `null` keeps that kind forever. */
export interface RetentionOptions {
  /** Webhook deliveries and their attempts, counted from when the delivery finished; then their events. Default 30. */
  deliveriesDays?: number | null;
  /** Lead payloads (personal data) are redacted this long after the lead arrived. Default null: kept. */
  leadPayloadsDays?: number | null;
  /** Message text (and a message's details) is blanked this long after it was written; the row stays. Default null: kept. */
  messageTextDays?: number | null;
  /** Rows per statement. Default 500. */
  batchSize?: number;
  /** How often the worker runs retention. Default 3600000 (hourly). */
  intervalMs?: number;
  /** A run stops starting batches after this long and carries on at the next one. Default 60000. */
  timeBudgetMs?: number;
  /** Further purges run after the built-in ones (each once per run; skipped by a dry run). */
  extraSteps?: RetentionStep[];
}

/**
 * A purge that is not one of the built-in kinds, e.g. expired OAuth records. Returns rows removed.
 * A step with more than `batchSize` rows to remove works in batches of that size, and starts
 * another only while `withinBudget()` (false once the run's time budget is spent; the run then
 * reports itself incomplete and the next one carries on).
 */
export interface RetentionStep {
  kind: string;
  run(context: { storage: Storage; now: Date; batchSize: number; withinBudget: () => boolean }): Promise<number>;
}

export interface RetentionSettings {
  deliveriesDays: number | null;
  leadPayloadsDays: number | null;
  messageTextDays: number | null;
  batchSize: number;
  intervalMs: number;
  timeBudgetMs: number;
  extraSteps: RetentionStep[];
}

/** Rows removed (or, in a dry run, that would be) per kind; `complete` is false when the time budget ran out first. */
export type RetentionReport = RetentionCounts & { extra: Record<string, number>; complete: boolean; dryRun: boolean };

function checked(value: unknown, field: string, allowNull: boolean): void {
  if (value === null && allowNull) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    const reason = allowNull ? "must be a positive number or null" : "must be a positive number";
    throw new VitrinaError("invalid_argument", `retention.${field} ${reason}`, {
      reasons: [{ field: `retention.${field}`, reason }],
    });
  }
}

/** Fills in the documented defaults and refuses nonsense at start-up rather than at the first run. */
export function resolveRetention(options: RetentionOptions = {}): RetentionSettings {
  const settings: RetentionSettings = {
    deliveriesDays: options.deliveriesDays === undefined ? 30 : options.deliveriesDays,
    leadPayloadsDays: options.leadPayloadsDays ?? null,
    messageTextDays: options.messageTextDays ?? null,
    batchSize: options.batchSize ?? 500,
    intervalMs: options.intervalMs ?? 3600_000,
    timeBudgetMs: options.timeBudgetMs ?? 60_000,
    extraSteps: options.extraSteps ?? [],
  };
  checked(settings.deliveriesDays, "deliveriesDays", true);
  checked(settings.leadPayloadsDays, "leadPayloadsDays", true);
  checked(settings.messageTextDays, "messageTextDays", true);
  for (const field of ["batchSize", "intervalMs", "timeBudgetMs"] as const) checked(settings[field], field, false);
  settings.batchSize = Math.floor(settings.batchSize);
  return settings;
}

const cutoff = (now: Date, days: number | null) =>
  days === null ? null : new Date(now.getTime() - days * DAY_MS).toISOString();

/**
 * One retention run: deliveries (attempts first), then events nothing references any more, then
 * lead payloads, then message texts, then `extraSteps`, each in batches of `batchSize` until a batch comes back short
 * or the time budget (measured on `clock`) is spent. A dry run only counts.
 *
 * ```ts
 * const report = await runRetention({ storage, clock, logger }, resolveRetention({ leadPayloadsDays: 365 }));
 * ```
 */
export async function runRetention(
  deps: { storage: Storage; clock: Clock; logger: Logger },
  settings: RetentionSettings,
  options: { dryRun?: boolean } = {},
): Promise<RetentionReport> {
  const { storage, clock } = deps;
  const now = clock.now();
  const deliveriesBefore = cutoff(now, settings.deliveriesDays);
  const leadsBefore = cutoff(now, settings.leadPayloadsDays);
  const messagesBefore = cutoff(now, settings.messageTextDays);
  if (options.dryRun) {
    const counts = await storage.retention.countEligible({
      deliveriesFinishedBefore: deliveriesBefore,
      leadsReceivedBefore: leadsBefore,
      messagesCreatedBefore: messagesBefore,
    });
    return { ...counts, extra: {}, complete: true, dryRun: true };
  }
  const report: RetentionReport = {
    attempts: 0,
    deliveries: 0,
    events: 0,
    leadPayloads: 0,
    messageTexts: 0,
    extra: {},
    complete: true,
    dryRun: false,
  };
  const deadline = now.getTime() + settings.timeBudgetMs;
  const withinBudget = () => clock.now().getTime() < deadline || ((report.complete = false), false);
  const drain = async (batch: () => Promise<number>) => {
    while (withinBudget() && (await batch()) >= settings.batchSize);
  };
  const limit = settings.batchSize;
  if (deliveriesBefore !== null) {
    await drain(async () => {
      const removed = await storage.retention.purgeFinishedDeliveries(deliveriesBefore, limit);
      report.deliveries += removed.deliveries;
      report.attempts += removed.attempts;
      return removed.deliveries;
    });
    await drain(async () => {
      const removed = await storage.retention.purgeUndeliveredEvents(deliveriesBefore, limit);
      report.events += removed;
      return removed;
    });
  }
  if (leadsBefore !== null) {
    await drain(async () => {
      const redacted = await storage.retention.redactLeadPayloads(leadsBefore, limit, now.toISOString());
      report.leadPayloads += redacted;
      return redacted;
    });
  }
  if (messagesBefore !== null) {
    await drain(async () => {
      const redacted = await storage.retention.redactMessageTexts(messagesBefore, limit, now.toISOString());
      report.messageTexts += redacted;
      return redacted;
    });
  }
  // Extra purges (expired OAuth codes, spent refresh tokens, unused clients) plug in here.
  for (const step of settings.extraSteps) {
    if (!withinBudget()) break;
    const removed = await step.run({ storage, now, batchSize: limit, withinBudget });
    report.extra[step.kind] = (report.extra[step.kind] ?? 0) + removed;
  }
  return report;
}
