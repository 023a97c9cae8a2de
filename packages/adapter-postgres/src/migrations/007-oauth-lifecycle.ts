/**
 * OAuth records get a lifecycle: `approved_at` says a user approved a client (before that,
 * `/authorize` never redirects an invalid request to it, and the client is purged after a
 * while); a grant's `expires_at` is its absolute end, stored so a later change of the configured
 * lifetime never shortens or stretches grants already given; indexes let `purgeExpired` find
 * expired codes, refresh tokens and grants without scanning.
 */
export const migration007 = (s: string): string[] => [
  `ALTER TABLE ${s}.oauth_clients ADD COLUMN approved_at timestamptz`,
  // Clients that already have a code or a grant were approved by someone.
  `UPDATE ${s}.oauth_clients c SET approved_at = c.created_at
     WHERE EXISTS (SELECT 1 FROM ${s}.oauth_codes o WHERE o.client_id = c.id)
        OR EXISTS (SELECT 1 FROM ${s}.oauth_token_families f WHERE f.client_id = c.id)`,
  `ALTER TABLE ${s}.oauth_token_families ADD COLUMN expires_at timestamptz`,
  // Grants given before this migration get the default lifetime (90 days) from their start.
  `UPDATE ${s}.oauth_token_families SET expires_at = created_at + interval '90 days'`,
  `ALTER TABLE ${s}.oauth_token_families ALTER COLUMN expires_at SET NOT NULL`,
  `CREATE INDEX oauth_clients_unapproved_idx ON ${s}.oauth_clients (created_at) WHERE approved_at IS NULL`,
  `CREATE INDEX oauth_codes_expires_idx ON ${s}.oauth_codes (expires_at)`,
  `CREATE INDEX oauth_refresh_tokens_expires_idx ON ${s}.oauth_refresh_tokens (expires_at)`,
  `CREATE INDEX oauth_token_families_expires_idx ON ${s}.oauth_token_families (expires_at)`,
  `CREATE INDEX oauth_token_families_revoked_idx ON ${s}.oauth_token_families (revoked_at) WHERE revoked_at IS NOT NULL`,
];
