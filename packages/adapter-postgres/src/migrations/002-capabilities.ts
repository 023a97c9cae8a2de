/** The capability runtime: catalog items, idempotency attempts, agent runs, tasks. */
export const migration002 = (s: string): string[] => [
  `CREATE TABLE ${s}.catalog_items (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES ${s}.workspaces(id) ON DELETE CASCADE,
    sku text NOT NULL,
    name text, source text, currency text,
    price numeric, stock numeric,
    availability text, description text, location text, delivery text, address text, developer text,
    amenities jsonb, typologies jsonb,
    variants jsonb NOT NULL DEFAULT '[]',
    images jsonb NOT NULL DEFAULT '[]',
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  // SKUs are unique per workspace whatever their case, as `findBySku` compares them.
  `CREATE UNIQUE INDEX catalog_items_sku_key ON ${s}.catalog_items (workspace_id, lower(sku))`,
  `CREATE TABLE ${s}.idempotency_attempts (
    id text PRIMARY KEY,
    workspace_id text NOT NULL,
    capability text NOT NULL,
    idempotency_key text NOT NULL,
    input_fingerprint text NOT NULL,
    state text NOT NULL CHECK (state IN ('pending', 'executing', 'confirmed', 'failed', 'unknown')),
    version integer NOT NULL,
    lease_expires_at timestamptz,
    output jsonb,
    observed_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT idempotency_attempts_key UNIQUE (workspace_id, capability, idempotency_key)
  )`,
  `CREATE TABLE ${s}.agent_runs (
    id text PRIMARY KEY,
    workspace_id text NOT NULL,
    agent_id text NOT NULL,
    actor_id text,
    status text NOT NULL,
    trace jsonb NOT NULL,
    started_at timestamptz NOT NULL,
    completed_at timestamptz NOT NULL
  )`,
  `CREATE TABLE ${s}.tasks (
    id text PRIMARY KEY,
    workspace_id text NOT NULL,
    kind text NOT NULL,
    status text NOT NULL,
    title text NOT NULL,
    reason text NOT NULL,
    capability text NOT NULL,
    input jsonb NOT NULL,
    actor_id text,
    agent_id text,
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX tasks_workspace_idx ON ${s}.tasks (workspace_id, status, created_at)`,
  `CREATE INDEX contacts_created_idx ON ${s}.contacts (workspace_id, created_at, id)`,
];
