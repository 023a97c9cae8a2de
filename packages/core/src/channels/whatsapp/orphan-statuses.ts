import type { RetentionStep } from "../../maintenance/retention.js";

/** The provider retries a status webhook for 7 days; 8 leaves a margin. */
const PROVIDER_REDELIVERY_DAYS = 8;

/**
 * Delivery reports no message of Vitrina's carries, once the provider can no longer redeliver a
 * status that would join one: otherwise the statuses of messages sent outside Vitrina on a shared
 * number would pile up forever.
 */
export const orphanStatusesRetentionStep: RetentionStep = {
  kind: "whatsapp_orphan_statuses",
  async run({ storage, now, batchSize, withinBudget }) {
    const before = new Date(now.getTime() - PROVIDER_REDELIVERY_DAYS * 24 * 3600_000).toISOString();
    let removed = 0;
    for (;;) {
      const purged = await storage.deliveryReports.purgeOrphans(before, batchSize);
      removed += purged;
      if (purged < batchSize || !withinBudget()) return removed;
    }
  },
};
