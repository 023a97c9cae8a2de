/**
 * The start of each receiver's answer in the delivery history (at most 1 KiB as text). Nullable:
 * attempts recorded before this migration, and attempts that got no answer, have none.
 */
export const migration010 = (s: string): string[] => [
  `ALTER TABLE ${s}.webhook_attempts ADD COLUMN response_body_prefix text`,
];
