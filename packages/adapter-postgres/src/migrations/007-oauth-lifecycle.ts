/**
 * OAuth records get a lifecycle: `approved_at` says a user approved a client (before that,
 * `/authorize` never redirects an invalid request to it, and the client is purged after a
 * while), and indexes let `purgeExpired` find expired codes, refresh tokens and ended grants
 * without scanning.
 */
export const migration007 = (s: string): string[] => [
  `ALTER TABLE ${s}.oauth_clients ADD COLUMN approved_at timestamptz`,
  // Clients that already have a code or a grant were approved by someone.
  `UPDATE ${s}.oauth_clients c SET approved_at = c.created_at
     WHERE EXISTS (SELECT 1 FROM ${s}.oauth_codes o WHERE o.client_id = c.id)
        OR EXISTS (SELECT 1 FROM ${s}.oauth_token_families f WHERE f.client_id = c.id)`,
  `CREATE INDEX oauth_clients_unapproved_idx ON ${s}.oauth_clients (created_at) WHERE approved_at IS NULL`,
  `CREATE INDEX oauth_codes_expires_idx ON ${s}.oauth_codes (expires_at)`,
  `CREATE INDEX oauth_refresh_tokens_expires_idx ON ${s}.oauth_refresh_tokens (expires_at)`,
  `CREATE INDEX oauth_token_families_created_idx ON ${s}.oauth_token_families (created_at)`,
  `CREATE INDEX oauth_token_families_revoked_idx ON ${s}.oauth_token_families (revoked_at) WHERE revoked_at IS NOT NULL`,
];
