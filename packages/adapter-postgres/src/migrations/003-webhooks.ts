/**
 * Quotes, orders, payments, API keys, webhook subscriptions and the delivery outbox.
 * Deliveries reference their subscription and event loosely (no foreign key): a deleted
 * subscription's pending deliveries are closed by the worker and their history stays readable.
 */
export const migration003 = (s: string): string[] => [
  `CREATE TABLE ${s}.quotes (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    contact_id text NOT NULL REFERENCES ${s}.contacts(id) ON DELETE CASCADE,
    conversation_id text,
    currency text NOT NULL,
    items jsonb NOT NULL,
    subtotal numeric NOT NULL,
    vat_rate numeric NOT NULL,
    vat numeric NOT NULL,
    total numeric NOT NULL,
    status text NOT NULL CHECK (status IN ('issued', 'accepted')),
    created_at timestamptz NOT NULL,
    accepted_at timestamptz
  )`,
  `CREATE TABLE ${s}.orders (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    contact_id text NOT NULL REFERENCES ${s}.contacts(id) ON DELETE CASCADE,
    quote_id text REFERENCES ${s}.quotes(id) ON DELETE SET NULL,
    total numeric NOT NULL,
    currency text NOT NULL,
    status text NOT NULL CHECK (status = 'confirmed'),
    decided_by text NOT NULL,
    approved_by text NOT NULL,
    erp_reference text,
    confirmed_at timestamptz NOT NULL,
    CONSTRAINT orders_quote_key UNIQUE (quote_id)
  )`,
  `CREATE TABLE ${s}.payments (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    order_id text NOT NULL REFERENCES ${s}.orders(id) ON DELETE CASCADE,
    contact_id text NOT NULL REFERENCES ${s}.contacts(id) ON DELETE CASCADE,
    amount numeric NOT NULL,
    currency text NOT NULL,
    method text NOT NULL,
    provider_reference text,
    received_at timestamptz NOT NULL,
    CONSTRAINT payments_reference_key UNIQUE (workspace_id, provider_reference)
  )`,
  `CREATE INDEX payments_order_idx ON ${s}.payments (order_id, received_at)`,
  `CREATE TABLE ${s}.api_keys (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    name text NOT NULL,
    visible_prefix text NOT NULL,
    hash text NOT NULL,
    scopes jsonb NOT NULL,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz,
    CONSTRAINT api_keys_hash_key UNIQUE (hash)
  )`,
  `CREATE INDEX api_keys_workspace_idx ON ${s}.api_keys (workspace_id, created_at)`,
  `CREATE TABLE ${s}.webhook_subscriptions (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    url text NOT NULL,
    events jsonb NOT NULL,
    sealed_secret text NOT NULL,
    enabled boolean NOT NULL,
    disabled_reason text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE INDEX webhook_subscriptions_workspace_idx ON ${s}.webhook_subscriptions (workspace_id, created_at)`,
  `CREATE TABLE ${s}.webhook_deliveries (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    subscription_id text NOT NULL,
    event_id text NOT NULL,
    event_type text NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempt_count integer NOT NULL,
    next_attempt_at timestamptz NOT NULL,
    retry_until timestamptz NOT NULL,
    lease_until timestamptz,
    leased_by text,
    last_error text,
    created_at timestamptz NOT NULL,
    delivered_at timestamptz,
    CONSTRAINT webhook_deliveries_event_subscription_key UNIQUE (event_id, subscription_id)
  )`,
  // The claim scans only pending rows, in due order.
  `CREATE INDEX webhook_deliveries_due_idx ON ${s}.webhook_deliveries (next_attempt_at, id) WHERE status = 'pending'`,
  `CREATE INDEX webhook_deliveries_subscription_idx ON ${s}.webhook_deliveries (subscription_id, created_at DESC, id DESC)`,
  `CREATE TABLE ${s}.webhook_attempts (
    id text PRIMARY KEY,
    delivery_id text NOT NULL REFERENCES ${s}.webhook_deliveries(id) ON DELETE CASCADE,
    number integer NOT NULL,
    attempted_at timestamptz NOT NULL,
    status_code integer,
    duration_ms double precision NOT NULL,
    error text
  )`,
  `CREATE INDEX webhook_attempts_delivery_idx ON ${s}.webhook_attempts (delivery_id, number)`,
];
