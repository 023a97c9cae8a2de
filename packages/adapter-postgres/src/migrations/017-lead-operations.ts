/**
 * What operators see of lead intake:
 * - `lead_refusals`: a ring per connector. A refusal overwrites slot `seq % keep`, so a connector
 *   never holds more than `keep` rows however many requests an attacker sprays at its id; the
 *   counter row serialises the writers of one connector (its row lock), and `at` lets retention
 *   purge by age.
 * - an index for the workspace-wide lead list, newest first.
 */
export const migration017 = (s: string): string[] => [
  `CREATE TABLE ${s}.lead_refusal_counters (
    connector_id text PRIMARY KEY REFERENCES ${s}.connectors(id) ON DELETE CASCADE,
    next_seq bigint NOT NULL
  )`,
  `CREATE TABLE ${s}.lead_refusals (
    connector_id text NOT NULL REFERENCES ${s}.connectors(id) ON DELETE CASCADE,
    slot integer NOT NULL,
    seq bigint NOT NULL,
    id text NOT NULL,
    at timestamptz NOT NULL,
    code text NOT NULL,
    fields jsonb NOT NULL,
    skew_ms bigint,
    request_id text,
    unrecorded_before integer NOT NULL,
    PRIMARY KEY (connector_id, slot)
  )`,
  `CREATE INDEX lead_refusals_at_idx ON ${s}.lead_refusals (at)`,
  `CREATE INDEX lead_events_workspace_newest_idx ON ${s}.lead_events (workspace_id, received_at DESC, id DESC)`,
];
