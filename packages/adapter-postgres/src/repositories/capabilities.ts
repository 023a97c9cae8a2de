import type {
  AgentRunRecord,
  CapabilityRepositories,
  CatalogItemRecord,
  IdempotencyAttemptRecord,
  TaskRecord,
} from "@vitrina/core/storage";
import { affected, type Queryable } from "../driver.js";
import { iso, isoOrNull, json, many, numOrNull, one, placeholders } from "../rows.js";

const toItem = (r: any): CatalogItemRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  sku: r.sku,
  name: r.name,
  source: r.source,
  currency: r.currency,
  price: numOrNull(r.price),
  stock: numOrNull(r.stock),
  availability: r.availability,
  description: r.description,
  location: r.location,
  delivery: r.delivery,
  address: r.address,
  developer: r.developer,
  amenities: r.amenities ?? null,
  typologies: r.typologies ?? null,
  variants: r.variants,
  images: r.images,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const toAttempt = (r: any): IdempotencyAttemptRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  capability: r.capability,
  idempotencyKey: r.idempotency_key,
  inputFingerprint: r.input_fingerprint,
  state: r.state,
  version: Number(r.version),
  leaseExpiresAt: isoOrNull(r.lease_expires_at),
  output: r.output ?? null,
  observedAt: isoOrNull(r.observed_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const toRun = (r: any): AgentRunRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  agentId: r.agent_id,
  actorId: r.actor_id,
  status: r.status,
  trace: r.trace,
  startedAt: iso(r.started_at),
  completedAt: iso(r.completed_at),
});

const toTask = (r: any): TaskRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  kind: r.kind,
  status: r.status,
  title: r.title,
  reason: r.reason,
  capability: r.capability,
  input: r.input,
  actorId: r.actor_id,
  agentId: r.agent_id,
  createdAt: iso(r.created_at),
});

const jsonOrNull = (value: unknown) => (value === null || value === undefined ? null : json(value));

const ITEM_COLUMNS =
  "id, workspace_id, sku, name, source, currency, price, stock, availability, description, location, delivery, address, developer, amenities, typologies, variants, images, created_at, updated_at";
const itemValues = (i: CatalogItemRecord) => [
  i.id,
  i.workspaceId,
  i.sku,
  i.name,
  i.source,
  i.currency,
  i.price,
  i.stock,
  i.availability,
  i.description,
  i.location,
  i.delivery,
  i.address,
  i.developer,
  jsonOrNull(i.amenities),
  jsonOrNull(i.typologies),
  json(i.variants),
  json(i.images),
  i.createdAt,
  i.updatedAt,
];
// Every column but the key ones takes the new value; the stored id stays.
const ITEM_UPDATES = ITEM_COLUMNS.split(", ")
  .filter((c) => c !== "id" && c !== "workspace_id")
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(", ");

const ATTEMPT_COLUMNS =
  "id, workspace_id, capability, idempotency_key, input_fingerprint, state, version, lease_expires_at, output, observed_at, created_at, updated_at";
const attemptValues = (a: IdempotencyAttemptRecord) => [
  a.id,
  a.workspaceId,
  a.capability,
  a.idempotencyKey,
  a.inputFingerprint,
  a.state,
  a.version,
  a.leaseExpiresAt,
  jsonOrNull(a.output),
  a.observedAt,
  a.createdAt,
  a.updatedAt,
];

export function capabilityRepositories(q: Queryable, s: string): CapabilityRepositories {
  return {
    catalogItems: {
      async upsert(item) {
        await q.query(
          `INSERT INTO ${s}.catalog_items (${ITEM_COLUMNS}) VALUES (${placeholders(20)})
           ON CONFLICT (workspace_id, lower(sku)) DO UPDATE SET ${ITEM_UPDATES}`,
          itemValues(item),
        );
      },
      search: (workspaceId, { search = "", limit }) =>
        many(
          q,
          `SELECT * FROM ${s}.catalog_items i WHERE workspace_id = $1 AND (strpos(lower(i.sku), lower($2)) > 0 OR strpos(lower(coalesce(i.name, '')), lower($2)) > 0
             OR EXISTS (SELECT 1 FROM jsonb_array_elements(i.variants) v
                        WHERE strpos(lower(v->>'sku'), lower($2)) > 0 OR strpos(lower(coalesce(v->>'name', '')), lower($2)) > 0))
           ORDER BY coalesce(i.name, ''), i.sku LIMIT $3`,
          [workspaceId, search, limit],
          toItem,
        ),
      findBySku: (workspaceId, sku) =>
        many(
          q,
          `SELECT * FROM ${s}.catalog_items i WHERE workspace_id = $1 AND (lower(i.sku) = lower($2)
             OR EXISTS (SELECT 1 FROM jsonb_array_elements(i.variants) v WHERE lower(v->>'sku') = lower($2))) ORDER BY i.sku`,
          [workspaceId, sku],
          toItem,
        ),
    },
    idempotencyAttempts: {
      async insertIfNew(attempt) {
        const result = await q.query(
          `INSERT INTO ${s}.idempotency_attempts (${ATTEMPT_COLUMNS}) VALUES (${placeholders(12)}) ON CONFLICT ON CONSTRAINT idempotency_attempts_key DO NOTHING`,
          attemptValues(attempt),
        );
        return affected(result) > 0;
      },
      get: (workspaceId, capability, key) =>
        one(
          q,
          `SELECT * FROM ${s}.idempotency_attempts WHERE workspace_id = $1 AND capability = $2 AND idempotency_key = $3`,
          [workspaceId, capability, key],
          toAttempt,
        ),
      async update(next) {
        // Compare-and-set on version: the row lock makes a concurrent writer wait, then miss.
        const result = await q.query(
          `UPDATE ${s}.idempotency_attempts SET workspace_id = $2, capability = $3, idempotency_key = $4, input_fingerprint = $5, state = $6,
             version = $7, lease_expires_at = $8, output = $9, observed_at = $10, created_at = $11, updated_at = $12
           WHERE id = $1 AND version = $7 - 1`,
          attemptValues(next),
        );
        return affected(result) > 0;
      },
    },
    agentRuns: {
      async insert(r) {
        await q.query(
          `INSERT INTO ${s}.agent_runs (id, workspace_id, agent_id, actor_id, status, trace, started_at, completed_at) VALUES (${placeholders(8)})`,
          [r.id, r.workspaceId, r.agentId, r.actorId, r.status, json(r.trace), r.startedAt, r.completedAt],
        );
      },
      get: (workspaceId, id) =>
        one(q, `SELECT * FROM ${s}.agent_runs WHERE workspace_id = $1 AND id = $2`, [workspaceId, id], toRun),
    },
    tasks: {
      async insert(t) {
        await q.query(
          `INSERT INTO ${s}.tasks (id, workspace_id, kind, status, title, reason, capability, input, actor_id, agent_id, created_at) VALUES (${placeholders(11)})`,
          [
            t.id,
            t.workspaceId,
            t.kind,
            t.status,
            t.title,
            t.reason,
            t.capability,
            json(t.input),
            t.actorId,
            t.agentId,
            t.createdAt,
          ],
        );
      },
      get: (workspaceId, id) =>
        one(q, `SELECT * FROM ${s}.tasks WHERE workspace_id = $1 AND id = $2`, [workspaceId, id], toTask),
      listByWorkspace: (workspaceId, options = {}) =>
        many(
          q,
          `SELECT * FROM ${s}.tasks WHERE workspace_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY created_at, id`,
          [workspaceId, options.status ?? null],
          toTask,
        ),
    },
  };
}
