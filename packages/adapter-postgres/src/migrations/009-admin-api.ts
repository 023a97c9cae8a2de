/**
 * The admin API:
 * - `workspace_members.email` / `added_at`: who was invited with which address, and when. Rows
 *   written before this migration get the migration time (their real date was never recorded).
 * - `api_keys.last_used_at`: touched at most once a minute per key by one conditional UPDATE.
 * - an index for the connector listing's keyset pagination.
 */
export const migration009 = (s: string): string[] => [
  `ALTER TABLE ${s}.workspace_members ADD COLUMN email text`,
  `ALTER TABLE ${s}.workspace_members ADD COLUMN added_at timestamptz NOT NULL DEFAULT now()`,
  `ALTER TABLE ${s}.api_keys ADD COLUMN last_used_at timestamptz`,
  `CREATE INDEX connectors_workspace_page_idx ON ${s}.connectors (workspace_id, created_at, id)`,
];
