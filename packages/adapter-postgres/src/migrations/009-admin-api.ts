/**
 * The admin API:
 * - `workspace_members.email` / `added_at`: who was invited with which address, and when. Rows
 *   written before this migration get the migration time (their real date was never recorded).
 * - `api_keys.last_used_at`: touched at most once a minute per key by one conditional UPDATE.
 * - indexes for the connector listing's keyset pagination and a connector's recent leads (with
 *   the "earlier lead of the same contact" probe).
 */
export const migration009 = (s: string): string[] => [
  `ALTER TABLE ${s}.workspace_members ADD COLUMN email text`,
  `ALTER TABLE ${s}.workspace_members ADD COLUMN added_at timestamptz NOT NULL DEFAULT now()`,
  `ALTER TABLE ${s}.api_keys ADD COLUMN last_used_at timestamptz`,
  `CREATE INDEX connectors_workspace_page_idx ON ${s}.connectors (workspace_id, created_at, id)`,
  `CREATE INDEX lead_events_connector_recent_idx ON ${s}.lead_events (connector_id, received_at, id)`,
  `CREATE INDEX lead_events_contact_idx ON ${s}.lead_events (contact_id, received_at, id)`,
];
