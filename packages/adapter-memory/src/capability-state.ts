import type { AgentRunRecord, CatalogItemRecord, IdempotencyAttemptRecord, TaskRecord } from "@vitrina/core/storage";
import { MemoryTable } from "./table.js";

/** Tables of the capability runtime; unique indexes mirror the PostgreSQL constraints. */
export function createCapabilityTables() {
  return {
    catalogItems: new MemoryTable<CatalogItemRecord>((i) => i.id, {
      sku: (i) => `${i.workspaceId}/${i.sku.toLowerCase()}`,
    }),
    idempotencyAttempts: new MemoryTable<IdempotencyAttemptRecord>((a) => a.id, {
      key: (a) => `${a.workspaceId}/${a.capability}/${a.idempotencyKey}`,
    }),
    agentRuns: new MemoryTable<AgentRunRecord>((r) => r.id),
    tasks: new MemoryTable<TaskRecord>((t) => t.id),
  };
}
