/**
 * Retention: each method changes at most `limit` rows in one short statement and returns how many
 * it changed, so a caller loops until a batch comes back short. Rows another transaction holds
 * are skipped, never waited for (PostgreSQL: `FOR UPDATE SKIP LOCKED`): a sweep never queues
 * behind, or blocks, live work.
 */
export interface RetentionRepository {
  /**
   * Deletes finished webhook deliveries (`succeeded` or `failed`) that finished before `before`,
   * with their attempts (attempts first). Pending deliveries are never touched. A failed delivery
   * finished at its last due time (`nextAttemptAt`), a succeeded one at `deliveredAt`.
   */
  purgeFinishedDeliveries(before: string, limit: number): Promise<{ deliveries: number; attempts: number }>;
  /** Deletes events created before `before` that no webhook delivery references any more. */
  purgeUndeliveredEvents(before: string, limit: number): Promise<number>;
  /**
   * Replaces the stored payload of leads received before `before` with `{ redacted_at }` and sets
   * `payloadRedactedAt`; the lead row stays (opportunities and evidence point to it). Each lead is
   * redacted once.
   */
  redactLeadPayloads(before: string, limit: number, redactedAt: string): Promise<number>;
  /**
   * Blanks the text (`content` becomes empty) and `details` of messages created before `before` and
   * sets their `contentRedactedAt`; the message row stays (who wrote when, its delivery). Each once.
   */
  redactMessageTexts(before: string, limit: number, redactedAt: string): Promise<number>;
  /** What the four methods above would change now with these cutoffs (null: that kind is kept), for a dry run. */
  countEligible(cutoffs: RetentionCutoffs): Promise<RetentionCounts>;
}

export interface RetentionCutoffs {
  deliveriesFinishedBefore: string | null;
  leadsReceivedBefore: string | null;
  messagesCreatedBefore: string | null;
}

export interface RetentionCounts {
  attempts: number;
  deliveries: number;
  events: number;
  leadPayloads: number;
  messageTexts: number;
}
