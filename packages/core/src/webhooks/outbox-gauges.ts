import type { BatchObservableCallback } from "@opentelemetry/api";
import type { Clock } from "../ports/clock.js";
import type { OutboxStats } from "../ports/webhook-storage.js";
import { TIMED_OUT, withinDeadline } from "../within-deadline.js";
import { instruments } from "../telemetry/metrics.js";

/** A metric collection waits this long for the outbox query at most, then reports nothing. */
export const OUTBOX_STATS_TIMEOUT_MS = 2_000;

/**
 * The `vitrina.outbox.depth` and `vitrina.outbox.oldest_pending_age` gauges over one storage, fed
 * by one `outboxStats` query per collection. Registered while at least one worker of this outbox
 * runs (the process that delivers is the one to watch; a web-only process adds no query), and
 * with the meter provider registered when the first worker starts. A query that fails or takes
 * longer than `OUTBOX_STATS_TIMEOUT_MS` skips that collection: the series goes absent, which an
 * alert on missing data catches, instead of reporting a stale value.
 */
export function createOutboxGauges(source: { outboxStats(now: string): Promise<OutboxStats> }, clock: Clock) {
  let holders = 0;
  let unregister: (() => void) | null = null;

  function register(): () => void {
    const { meter } = instruments();
    const depth = meter.createObservableGauge("vitrina.outbox.depth", {
      description: "Webhook deliveries pending (due, in flight or awaiting a retry)",
      unit: "{delivery}",
    });
    const age = meter.createObservableGauge("vitrina.outbox.oldest_pending_age", {
      description: "How long the most overdue pending delivery has waited past its due time",
      unit: "s",
    });
    const observe: BatchObservableCallback = async (result) => {
      const now = clock.now();
      try {
        // The query keeps running past the deadline, but nobody waits for it.
        const stats = await withinDeadline(source.outboxStats(now.toISOString()), OUTBOX_STATS_TIMEOUT_MS);
        if (stats === TIMED_OUT) return;
        result.observe(depth, stats.pending);
        const waited = stats.oldestDueAt === null ? 0 : (now.getTime() - Date.parse(stats.oldestDueAt)) / 1000;
        result.observe(age, Math.max(0, waited));
      } catch {
        // Skipped on purpose (see above); a broken storage shows up in the delivery metrics too.
      }
    };
    meter.addBatchObservableCallback(observe, [depth, age]);
    return () => meter.removeBatchObservableCallback(observe, [depth, age]);
  }

  /** Starts reporting (once per outbox, however many workers); call the result when a worker stops. */
  return function acquire(): () => void {
    if (holders++ === 0) unregister = register();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--holders === 0) {
        unregister?.();
        unregister = null;
      }
    };
  };
}
