/** Workspaces, connectors, contacts, leads, opportunities, first messages, conversations, the event outbox. */
export const migration001 = (s: string): string[] => [
  `CREATE TABLE ${s}.workspaces (
    id text PRIMARY KEY,
    name text NOT NULL,
    vertical text NOT NULL,
    currency text NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  `CREATE TABLE ${s}.workspace_members (
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    user_id text NOT NULL,
    role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
    PRIMARY KEY (workspace_id, user_id)
  )`,
  `CREATE TABLE ${s}.connectors (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    name text NOT NULL,
    system_id text NOT NULL,
    sealed_secret text NOT NULL,
    secret_version integer NOT NULL,
    created_at timestamptz NOT NULL,
    rotated_at timestamptz,
    CONSTRAINT connectors_system_id_key UNIQUE (workspace_id, system_id)
  )`,
  `CREATE TABLE ${s}.contacts (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    name text,
    phone_e164 text,
    email text,
    tags jsonb NOT NULL DEFAULT '[]',
    score double precision,
    ltv double precision,
    whatsapp_consent jsonb,
    whatsapp_opted_out_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT contacts_phone_key UNIQUE (workspace_id, phone_e164)
  )`,
  `CREATE INDEX contacts_email_idx ON ${s}.contacts (workspace_id, lower(email))`,
  `CREATE TABLE ${s}.lead_events (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    connector_id text NOT NULL REFERENCES ${s}.connectors(id) ON DELETE CASCADE,
    source_lead_id text NOT NULL,
    contact_id text NOT NULL,
    opportunity_id text NOT NULL,
    eligible_for_whatsapp boolean NOT NULL,
    payload jsonb NOT NULL,
    qualification_rejected jsonb NOT NULL,
    received_at timestamptz NOT NULL,
    CONSTRAINT lead_events_source_key UNIQUE (connector_id, source_lead_id)
  )`,
  `CREATE INDEX lead_events_workspace_idx ON ${s}.lead_events (workspace_id)`,
  `CREATE TABLE ${s}.opportunities (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    contact_id text NOT NULL REFERENCES ${s}.contacts(id) ON DELETE CASCADE,
    lead_event_id text NOT NULL,
    stage text NOT NULL,
    source text,
    campaign_id text,
    catalog_item_id text,
    landing_page text,
    qualification jsonb NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX opportunities_contact_idx ON ${s}.opportunities (contact_id, created_at)`,
  `CREATE TABLE ${s}.outbound_messages (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    lead_event_id text NOT NULL UNIQUE,
    contact_id text NOT NULL REFERENCES ${s}.contacts(id) ON DELETE CASCADE,
    channel text NOT NULL,
    status text NOT NULL CHECK (status IN ('sent', 'queued', 'blocked', 'failed')),
    reason text,
    provider_message_id text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE INDEX outbound_messages_workspace_idx ON ${s}.outbound_messages (workspace_id, created_at)`,
  `CREATE TABLE ${s}.conversations (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    contact_id text NOT NULL REFERENCES ${s}.contacts(id) ON DELETE CASCADE,
    channel text NOT NULL,
    status text NOT NULL CHECK (status IN ('open', 'pending', 'closed')),
    escalated_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE INDEX conversations_workspace_idx ON ${s}.conversations (workspace_id, status, updated_at DESC)`,
  `CREATE TABLE ${s}.messages (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    conversation_id text NOT NULL REFERENCES ${s}.conversations(id) ON DELETE CASCADE,
    sender text NOT NULL,
    content text NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX messages_conversation_idx ON ${s}.messages (conversation_id, created_at DESC, id DESC)`,
  `CREATE TABLE ${s}.events (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    type text NOT NULL,
    created timestamptz NOT NULL,
    data jsonb NOT NULL
  )`,
  `CREATE INDEX events_workspace_idx ON ${s}.events (workspace_id, created)`,
];
