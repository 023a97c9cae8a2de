/**
 * A person's data on request.
 * - `suppressions`: what an erasure keeps of a person who had opted out, keyed hashes of the phone
 *   and of the provider's user id (never the values), so lead intake never messages them again.
 * - `erasures`: who asked for which erasure, when, and how many rows of each kind it touched.
 * - `messages.content_redacted_at`: retention's message-text redaction, one per message (nullable,
 *   no default: adding it rewrites no table).
 * - `events_contact_idx`: an export and an erasure find the events that name a contact by
 *   `data->>'contact_id'` without scanning the workspace's whole outbox.
 */
export const migration015 = (s: string): string[] => [
  `CREATE TABLE ${s}.suppressions (
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    phone_hash text,
    user_id_hash text,
    opted_out_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    CHECK (phone_hash IS NOT NULL OR user_id_hash IS NOT NULL)
  )`,
  `CREATE INDEX suppressions_phone_idx ON ${s}.suppressions (workspace_id, phone_hash) WHERE phone_hash IS NOT NULL`,
  `CREATE INDEX suppressions_user_idx ON ${s}.suppressions (workspace_id, user_id_hash) WHERE user_id_hash IS NOT NULL`,
  `CREATE TABLE ${s}.erasures (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    contact_id text NOT NULL,
    requested_by text NOT NULL,
    erased_at timestamptz NOT NULL,
    counts jsonb NOT NULL
  )`,
  `CREATE INDEX erasures_workspace_idx ON ${s}.erasures (workspace_id, erased_at DESC, id DESC)`,
  `ALTER TABLE ${s}.messages ADD COLUMN content_redacted_at timestamptz`,
  `CREATE INDEX messages_unredacted_idx ON ${s}.messages (created_at) WHERE content_redacted_at IS NULL`,
  `CREATE INDEX events_contact_idx ON ${s}.events (workspace_id, (data->>'contact_id'), created, id)`,
];
