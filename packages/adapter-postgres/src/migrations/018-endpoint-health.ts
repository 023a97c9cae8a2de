/**
 * Endpoint health (storage contract 17): each subscription keeps its newest attempt's outcome and
 * when its current run of failures began, written with the attempt by `completeClaims`, so the
 * console's list and the auto-disable read one row instead of the history. Attempts keep the
 * request headers they were sent with (signatures redacted). Nullable columns without defaults:
 * adding them rewrites nothing.
 */
export const migration018 = (s: string): string[] => [
  `ALTER TABLE ${s}.webhook_subscriptions
     ADD COLUMN failing_since timestamptz,
     ADD COLUMN last_attempt_at timestamptz,
     ADD COLUMN last_attempt_status_code integer,
     ADD COLUMN last_attempt_error text`,
  // Finding one event's delivery needs no index of its own: the unique (event_id, subscription_id) key serves it.
  `ALTER TABLE ${s}.webhook_attempts ADD COLUMN request_headers jsonb`,
];
