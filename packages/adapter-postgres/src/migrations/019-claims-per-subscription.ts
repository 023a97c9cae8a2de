/**
 * Pending deliveries by subscription, in due order. While a subscription sits at its cap, a claim
 * reads the other subscriptions' due rows through this index, one subscription at a time, instead of
 * walking the due-order index past every due row of the capped one (see delivery-claims.ts). Only
 * pending rows are in it, and claiming changes none of its columns (the claim stays a HOT update):
 * a delivery adds one entry when it is queued and one per retry it is rescheduled for. Building it
 * reads the table once, under a lock that holds writes to `webhook_deliveries` back for that long;
 * an operator with a large outbox may build it `CONCURRENTLY` beforehand, under this name (IF NOT EXISTS).
 */
export const migration019 = (s: string): string[] => [
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_subscription_due_idx ON ${s}.webhook_deliveries (subscription_id, next_attempt_at, id)
     WHERE status = 'pending'`,
];
