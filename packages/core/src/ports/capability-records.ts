/**
 * Records behind the capability runtime: the product catalog, logical attempts of idempotent
 * commands, agent runs with their trace, and tasks left for a person. Same rules as `records.ts`:
 * timestamps are ISO 8601 UTC strings, every adapter hands back exactly what it stored.
 */

/** A string, a list of strings, or nothing: how real-estate listings carry amenities and typologies. */
export type TextOrList = string | string[] | null;

/** A sellable variant of a catalog item (a unit type, a size): its own SKU, price and stock. */
export interface CatalogVariantRecord {
  sku: string;
  name: string | null;
  price: number | null;
  stock: number | null;
}

export interface CatalogItemRecord {
  id: string;
  workspaceId: string;
  /** Unique per workspace, compared case-insensitively. */
  sku: string;
  name: string | null;
  /** Where the item comes from (`service_native` for items kept here). */
  source: string | null;
  currency: string | null;
  price: number | null;
  stock: number | null;
  availability: string | null;
  description: string | null;
  location: string | null;
  delivery: string | null;
  address: string | null;
  developer: string | null;
  amenities: TextOrList;
  typologies: TextOrList;
  variants: CatalogVariantRecord[];
  /** Image URLs, the cover first. */
  images: string[];
  createdAt: string;
  updatedAt: string;
}

/** The states of a `logical-attempt` (see the Capabilities section of the core README). */
export type AttemptState = "pending" | "executing" | "confirmed" | "failed" | "unknown";

export interface IdempotencyAttemptRecord {
  id: string;
  workspaceId: string;
  capability: string;
  idempotencyKey: string;
  /** SHA-256 of the canonical JSON of the validated input: a reused key with another input is refused. */
  inputFingerprint: string;
  state: AttemptState;
  /** Bumped on every transition; writes are compare-and-set on it. */
  version: number;
  /** While `executing`: after this instant the holder is presumed dead and the attempt is `unknown`. */
  leaseExpiresAt: string | null;
  /** The recorded output once `confirmed` or `failed`. */
  output: unknown;
  /** When the outcome was observed; replayed as the provenance's `observedAt`. */
  observedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type InvocationOutcome = "ok" | "error" | "blocked";

/** One capability call inside an agent run. */
export interface TraceEntry {
  capability: string;
  input: unknown;
  outcome: InvocationOutcome;
  output?: unknown;
  error?: { code: string; message: string };
  /** Set when a policy blocked the call. */
  taskId?: string;
  startedAt: string;
  durationMs: number;
}

export interface AgentRunRecord {
  id: string;
  workspaceId: string;
  agentId: string;
  actorId: string | null;
  status: "completed";
  trace: TraceEntry[];
  startedAt: string;
  completedAt: string;
}

export type TaskStatus = "open" | "done";

/** Work left for a person, e.g. to review an action a policy blocked. */
export interface TaskRecord {
  id: string;
  workspaceId: string;
  kind: "policy_review";
  status: TaskStatus;
  title: string;
  reason: string;
  capability: string;
  input: unknown;
  actorId: string | null;
  agentId: string | null;
  createdAt: string;
}
