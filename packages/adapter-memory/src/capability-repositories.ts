import type { CapabilityRepositories, CatalogItemRecord } from "@vitrina/core/storage";
import type { MemoryState } from "./state.js";
import type { UndoLog } from "./table.js";

const byNameThenSku = (a: CatalogItemRecord, b: CatalogItemRecord) =>
  (a.name ?? "").localeCompare(b.name ?? "") || a.sku.localeCompare(b.sku);

function matchesSearch(item: CatalogItemRecord, term: string): boolean {
  const texts = [item.name, item.sku, ...item.variants.flatMap((v) => [v.name, v.sku])];
  return texts.some((text) => text?.toLowerCase().includes(term));
}

const inWorkspace = <T extends { workspaceId: string }>(row: T | null, workspaceId: string) =>
  row?.workspaceId === workspaceId ? row : null;

/** The memory repositories of the capability runtime; spread into `createMemoryRepositories`. */
export function createCapabilityRepositories(state: MemoryState, undo: UndoLog): CapabilityRepositories {
  return {
    catalogItems: {
      async upsert(item) {
        const existing = state.catalogItems.lookup("sku", `${item.workspaceId}/${item.sku.toLowerCase()}`);
        if (existing === null) state.catalogItems.insert(item, undo);
        else state.catalogItems.replace({ ...item, id: existing.id }, undo);
      },
      async search(workspaceId, { search = "", limit }) {
        const term = search.toLowerCase();
        const rows = state.catalogItems.filter((i) => i.workspaceId === workspaceId && matchesSearch(i, term));
        return rows.sort(byNameThenSku).slice(0, limit);
      },
      async findBySku(workspaceId, sku) {
        const wanted = sku.toLowerCase();
        const rows = state.catalogItems.filter(
          (i) =>
            i.workspaceId === workspaceId &&
            [i.sku, ...i.variants.map((v) => v.sku)].some((s) => s.toLowerCase() === wanted),
        );
        return rows.sort((a, b) => a.sku.localeCompare(b.sku));
      },
    },
    idempotencyAttempts: {
      async insertIfNew(attempt) {
        if (state.idempotencyAttempts.holds("key", attempt)) return false;
        state.idempotencyAttempts.insert(attempt, undo);
        return true;
      },
      async get(workspaceId, capability, idempotencyKey) {
        return state.idempotencyAttempts.lookup("key", `${workspaceId}/${capability}/${idempotencyKey}`);
      },
      async update(next) {
        const stored = state.idempotencyAttempts.get(next.id);
        if (stored === null || stored.version !== next.version - 1) return false;
        return state.idempotencyAttempts.replace(next, undo);
      },
    },
    agentRuns: {
      async insert(run) {
        state.agentRuns.insert(run, undo);
      },
      async get(workspaceId, id) {
        return inWorkspace(state.agentRuns.get(id), workspaceId);
      },
    },
    tasks: {
      async insert(task) {
        state.tasks.insert(task, undo);
      },
      async get(workspaceId, id) {
        return inWorkspace(state.tasks.get(id), workspaceId);
      },
      async listByWorkspace(workspaceId, options = {}) {
        return state.tasks
          .filter((t) => t.workspaceId === workspaceId && (options.status === undefined || t.status === options.status))
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
      },
    },
  };
}
