import type {
  AgentRunRecord,
  CatalogItemRecord,
  IdempotencyAttemptRecord,
  TaskRecord,
  TaskStatus,
} from "./capability-records.js";

/** The repositories the capability runtime adds to the Storage port. */
export interface CatalogItemRepository {
  /** Inserts or replaces the item with this (workspaceId, sku), sku compared case-insensitively. */
  upsert(item: CatalogItemRecord): Promise<void>;
  /**
   * Items whose name or SKU, or a variant's name or SKU, contains `search` (case-insensitive);
   * every item when `search` is empty. Ordered by name, then SKU.
   */
  search(workspaceId: string, options: { search?: string; limit: number }): Promise<CatalogItemRecord[]>;
  /** Items whose SKU or a variant's SKU equals `sku` (case-insensitive), ordered by SKU. */
  findBySku(workspaceId: string, sku: string): Promise<CatalogItemRecord[]>;
}

export interface IdempotencyAttemptRepository {
  /** Inserts unless (workspaceId, capability, idempotencyKey) exists; `false` means it existed. */
  insertIfNew(attempt: IdempotencyAttemptRecord): Promise<boolean>;
  get(workspaceId: string, capability: string, idempotencyKey: string): Promise<IdempotencyAttemptRecord | null>;
  /**
   * Compare-and-set: writes `next` only when the stored version is `next.version - 1`, so two
   * processes can never both move the same attempt. Returns whether it wrote.
   */
  update(next: IdempotencyAttemptRecord): Promise<boolean>;
}

export interface AgentRunRepository {
  insert(run: AgentRunRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<AgentRunRecord | null>;
}

export interface TaskRepository {
  insert(task: TaskRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<TaskRecord | null>;
  /** Oldest first. */
  listByWorkspace(workspaceId: string, options?: { status?: TaskStatus }): Promise<TaskRecord[]>;
}

export interface CapabilityRepositories {
  catalogItems: CatalogItemRepository;
  idempotencyAttempts: IdempotencyAttemptRepository;
  agentRuns: AgentRunRepository;
  tasks: TaskRepository;
}
