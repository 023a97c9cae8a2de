/**
 * The WhatsApp channel: per-workspace numbers, the provider's delivery reports, the consent
 * ledger, and the columns inbound messages and the service window need. Every new column is
 * nullable with no default, so adding it rewrites no table (PostgreSQL 11+).
 */
export const migration013 = (s: string): string[] => [
  `ALTER TABLE ${s}.contacts ADD COLUMN whatsapp_user_id text, ADD COLUMN whatsapp_last_inbound_at timestamptz,
     ADD COLUMN whatsapp_resumed_at timestamptz`,
  // A business-scoped user id names one person per workspace, as a phone does.
  `CREATE UNIQUE INDEX contacts_whatsapp_user_key ON ${s}.contacts (workspace_id, whatsapp_user_id)
     WHERE whatsapp_user_id IS NOT NULL`,
  `ALTER TABLE ${s}.messages ADD COLUMN provider_message_id text, ADD COLUMN kind text, ADD COLUMN reply_to text,
     ADD COLUMN details jsonb`,
  // Inbound messages are deduplicated on it (the provider redelivers for up to 7 days).
  `CREATE UNIQUE INDEX messages_provider_key ON ${s}.messages (workspace_id, provider_message_id)
     WHERE provider_message_id IS NOT NULL`,
  `CREATE INDEX outbound_messages_provider_idx ON ${s}.outbound_messages (workspace_id, provider_message_id)
     WHERE provider_message_id IS NOT NULL`,
  `ALTER TABLE ${s}.opportunities ADD COLUMN attribution jsonb`,
  `CREATE TABLE ${s}.whatsapp_channels (
    workspace_id text PRIMARY KEY REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    phone_number_id text NOT NULL,
    sealed_access_token text,
    sealed_app_secret text NOT NULL,
    verify_token_hash text NOT NULL,
    graph_base_url text NOT NULL,
    api_version text NOT NULL,
    opt_out_keywords jsonb,
    opt_in_keywords jsonb,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT whatsapp_channels_phone_number_key UNIQUE (phone_number_id)
  )`,
  `CREATE INDEX whatsapp_channels_verify_token_idx ON ${s}.whatsapp_channels (verify_token_hash)`,
  // Keyed by the provider's message id alone, not by our records: a status may arrive before the
  // send's answer is recorded, and is joined to the message when it is.
  `CREATE TABLE ${s}.delivery_reports (
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    provider_message_id text NOT NULL,
    status text NOT NULL CHECK (status IN ('sent', 'delivered', 'read', 'failed')),
    sent_at timestamptz,
    delivered_at timestamptz,
    read_at timestamptz,
    failed_at timestamptz,
    failure_code integer,
    failure_title text,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, provider_message_id)
  )`,
  `CREATE TABLE ${s}.consent_ledger (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    contact_id text NOT NULL REFERENCES ${s}.contacts(id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('granted', 'withdrawn', 'opted_out', 'resumed')),
    source text NOT NULL,
    source_ref text,
    evidence jsonb NOT NULL,
    occurred_at timestamptz NOT NULL,
    recorded_at timestamptz NOT NULL,
    dedupe_key text
  )`,
  `CREATE UNIQUE INDEX consent_ledger_dedupe_key ON ${s}.consent_ledger (workspace_id, dedupe_key) WHERE dedupe_key IS NOT NULL`,
  `CREATE INDEX consent_ledger_contact_idx ON ${s}.consent_ledger (contact_id, occurred_at DESC)`,
];
