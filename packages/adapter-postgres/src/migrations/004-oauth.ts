/**
 * OAuth 2.1 for MCP clients: registered clients, authorization codes, token families (grants) and
 * refresh tokens. Codes, refresh tokens and client secrets are stored only as SHA-256 hashes.
 * Client and workspace ids are not foreign keys: a client outlives nothing it points to, and the
 * authenticator reads one family by primary key per MCP call, which needs no join.
 */
export const migration004 = (s: string): string[] => [
  `CREATE TABLE ${s}.oauth_clients (
    id text PRIMARY KEY,
    secret_hash text,
    token_endpoint_auth_method text NOT NULL CHECK (token_endpoint_auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
    redirect_uris jsonb NOT NULL,
    scopes jsonb,
    metadata jsonb NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  `CREATE TABLE ${s}.oauth_codes (
    code_hash text PRIMARY KEY,
    client_id text NOT NULL,
    redirect_uri text NOT NULL,
    code_challenge text NOT NULL,
    resource text NOT NULL,
    scopes jsonb NOT NULL,
    user_id text NOT NULL,
    workspace_id text NOT NULL,
    family_id text NOT NULL,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    used_at timestamptz
  )`,
  `CREATE TABLE ${s}.oauth_token_families (
    id text PRIMARY KEY,
    client_id text NOT NULL,
    user_id text NOT NULL,
    workspace_id text NOT NULL,
    scopes jsonb NOT NULL,
    resource text NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`,
  `CREATE TABLE ${s}.oauth_refresh_tokens (
    token_hash text PRIMARY KEY,
    family_id text NOT NULL REFERENCES ${s}.oauth_token_families(id) ON DELETE CASCADE,
    scopes jsonb NOT NULL,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    used_at timestamptz
  )`,
  `CREATE INDEX oauth_refresh_tokens_family_idx ON ${s}.oauth_refresh_tokens (family_id)`,
];
