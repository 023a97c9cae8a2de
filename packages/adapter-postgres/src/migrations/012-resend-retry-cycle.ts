/**
 * `attempt_count` when the delivery was last resent: the backoff counts only the attempts after it,
 * so a resend starts a fresh retry schedule while attempt numbers keep counting. 0 for every existing
 * row (none was resent under this rule) and for new deliveries, which the fan-out's INSERT leaves to
 * the default. A constant default adds the column without rewriting the table (PostgreSQL 11+).
 */
export const migration012 = (s: string): string[] => [
  `ALTER TABLE ${s}.webhook_deliveries ADD COLUMN attempts_before_resend integer NOT NULL DEFAULT 0`,
];
