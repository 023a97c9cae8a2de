/**
 * Retention and the first message's send lease:
 * - `outbound_messages.handed_to_provider_at` / `provider_answered_at`: a message handed to the
 *   provider without an answer is in flight; past its lease the sweep marks it failed (outcome
 *   unknown) instead of leaving it `queued` forever. Rows written before this migration: a
 *   `queued` message counts as handed over (it may have reached the provider, so it is never sent
 *   again automatically) unless the provider answered that it holds it; sent and failed ones
 *   count as handed over and answered.
 * - `lead_events.payload_redacted_at`: set when retention replaced the payload.
 * - indexes for the retention sweeps (finished deliveries, old events, unredacted leads) and for
 *   the unsettled first messages, each partial so it stays small.
 */
export const migration008 = (s: string): string[] => [
  `ALTER TABLE ${s}.outbound_messages ADD COLUMN handed_to_provider_at timestamptz`,
  `ALTER TABLE ${s}.outbound_messages ADD COLUMN provider_answered_at timestamptz`,
  `UPDATE ${s}.outbound_messages SET handed_to_provider_at = updated_at,
     provider_answered_at = CASE WHEN status <> 'queued' OR reason = 'held by the messaging provider' THEN updated_at END
     WHERE status <> 'blocked'`,
  `CREATE INDEX outbound_messages_unsettled_idx ON ${s}.outbound_messages ((coalesce(handed_to_provider_at, created_at)), id)
     WHERE status = 'queued' AND provider_answered_at IS NULL`,
  `ALTER TABLE ${s}.lead_events ADD COLUMN payload_redacted_at timestamptz`,
  `CREATE INDEX lead_events_unredacted_idx ON ${s}.lead_events (received_at) WHERE payload_redacted_at IS NULL`,
  `CREATE INDEX webhook_deliveries_finished_idx ON ${s}.webhook_deliveries ((coalesce(delivered_at, next_attempt_at)), id)
     WHERE status <> 'pending'`,
  `CREATE INDEX events_created_idx ON ${s}.events (created)`,
];
