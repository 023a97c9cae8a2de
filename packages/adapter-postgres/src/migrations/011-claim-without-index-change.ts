/**
 * The unsettled first messages' index is keyed on `created_at` instead of
 * `coalesce(handed_to_provider_at, created_at)`. Claiming a message for sending sets
 * `handed_to_provider_at` and nothing else that is indexed, so the claim's UPDATE can now be a HOT
 * update: no new entry in any of the table's five indexes. Measured on lead intake: about 7 % less
 * PostgreSQL CPU per lead. The sweep (`listUnsettled`) still reads only this small partial index
 * (queued, unanswered messages) and sorts what it finds. Building it reads the table once, under a
 * lock that holds writes to `outbound_messages` back for that long.
 */
export const migration011 = (s: string): string[] => [
  `DROP INDEX ${s}.outbound_messages_unsettled_idx`,
  `CREATE INDEX outbound_messages_unsettled_idx ON ${s}.outbound_messages (created_at, id)
     WHERE status = 'queued' AND provider_answered_at IS NULL`,
];
