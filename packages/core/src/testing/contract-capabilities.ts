import type { ContractContext } from "./contract-section.js";
import { expect } from "vitest";
import { it } from "./contract-test.js";
import type { CatalogItemRecord, IdempotencyAttemptRecord, TaskRecord } from "../ports/capability-records.js";
import type { Storage } from "../ports/storage.js";
import type { fixtures } from "./fixtures.js";

type Fixtures = ReturnType<typeof fixtures>;

function catalogItem(f: Fixtures, workspaceId: string, over: Partial<CatalogItemRecord> = {}): CatalogItemRecord {
  return {
    id: f.id(),
    workspaceId,
    sku: `SKU-${f.id().slice(0, 8)}`,
    name: "Edificio Mirador",
    source: "service_native",
    currency: "CLP",
    price: 98_000_000,
    stock: 3,
    availability: "in_stock",
    description: "Frente al parque 🌳",
    location: "Ñuñoa, Santiago",
    delivery: "2026-12",
    address: "Av. Irarrázaval 1234",
    developer: "Andes SpA",
    amenities: ["piscina", "quincho"],
    typologies: "2D2B",
    images: ["https://img.example/1.jpg", "https://img.example/2.jpg"],
    variants: [{ sku: `VAR-${f.id().slice(0, 8)}`, name: "2D2B norte", price: 99_000_000, stock: 1 }],
    createdAt: f.at(),
    updatedAt: f.at(),
    ...over,
  };
}

function attempt(
  f: Fixtures,
  workspaceId: string,
  over: Partial<IdempotencyAttemptRecord> = {},
): IdempotencyAttemptRecord {
  return {
    id: f.id(),
    workspaceId,
    capability: "contacts.update",
    idempotencyKey: `key-${f.id()}`,
    inputFingerprint: "abc",
    state: "pending",
    version: 1,
    leaseExpiresAt: null,
    output: null,
    observedAt: null,
    createdAt: f.at(),
    updatedAt: f.at(),
    ...over,
  };
}

/**
 * The capability runtime's part of the storage contract, run inside `runStorageContract`.
 * `seedWorkspace` makes a fresh workspace so tests never see each other's rows.
 */
export function capabilityStorageContract({ storage, f, seedWorkspace }: ContractContext): void {
  it("searches contacts by name, email or phone digits, oldest first, within the workspace", async () => {
    const { workspace } = await seedWorkspace();
    const s = storage();
    const maria = f.contact(workspace.id, {
      name: "María José",
      email: "mj@Andes.cl",
      phoneE164: "+56911112222",
      createdAt: f.at(1),
    });
    const pedro = f.contact(workspace.id, {
      name: "Pedro",
      email: null,
      phoneE164: "+56933334444",
      createdAt: f.at(2),
    });
    for (const c of [pedro, maria]) await s.contacts.insertOrGetByPhone(c);
    expect(await s.contacts.search(workspace.id, "maría", { limit: 10 })).toEqual([maria]);
    expect(await s.contacts.search(workspace.id, "ANDES.CL", { limit: 10 })).toEqual([maria]);
    expect(await s.contacts.search(workspace.id, "3333 4444", { limit: 10 })).toEqual([pedro]);
    expect(await s.contacts.search(workspace.id, "+569", { limit: 10 })).toEqual([maria, pedro]);
    expect(await s.contacts.search(workspace.id, "+569", { limit: 1 })).toEqual([maria]);
    expect(await s.contacts.search(workspace.id, "nadie", { limit: 10 })).toEqual([]);
    expect(await s.contacts.search(f.id(), "maría", { limit: 10 })).toEqual([]);
  });

  it("refuses to update a contact to a phone another contact of the workspace holds", async () => {
    const { workspace } = await seedWorkspace();
    const s = storage();
    const { contact: first } = await s.contacts.insertOrGetByPhone(f.contact(workspace.id));
    const { contact: second } = await s.contacts.insertOrGetByPhone(f.contact(workspace.id));
    await expect(s.contacts.update({ ...second, phoneE164: first.phoneE164 })).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await s.contacts.get(workspace.id, second.id)).toEqual(second);
    expect(await s.contacts.findByPhone(workspace.id, first.phoneE164!)).toEqual(first);
  });

  it("upserts catalog items by SKU and finds them by name, SKU or variant, case-insensitively", async () => {
    const { workspace } = await seedWorkspace();
    const s = storage();
    const mirador = catalogItem(f, workspace.id, { name: "Edificio Mirador" });
    const bosque = catalogItem(f, workspace.id, {
      name: "Condominio Bosque",
      amenities: null,
      typologies: ["1D1B", "3D2B"],
      variants: [],
    });
    for (const item of [mirador, bosque]) await s.catalogItems.upsert(item);
    expect(await s.catalogItems.search(workspace.id, { limit: 10 })).toEqual([bosque, mirador]);
    expect(await s.catalogItems.search(workspace.id, { search: "mirador", limit: 10 })).toEqual([mirador]);
    expect(await s.catalogItems.search(workspace.id, { search: mirador.sku.toLowerCase(), limit: 10 })).toEqual([
      mirador,
    ]);
    expect(await s.catalogItems.search(workspace.id, { search: mirador.variants[0]!.sku, limit: 10 })).toEqual([
      mirador,
    ]);
    expect(await s.catalogItems.search(workspace.id, { search: "", limit: 1 })).toEqual([bosque]);
    expect(await s.catalogItems.findBySku(workspace.id, mirador.variants[0]!.sku.toLowerCase())).toEqual([mirador]);
    expect(await s.catalogItems.findBySku(f.id(), mirador.sku)).toEqual([]);
    const repriced = { ...mirador, id: f.id(), sku: mirador.sku.toLowerCase(), price: 1, updatedAt: f.at(5) };
    await s.catalogItems.upsert(repriced);
    expect(await s.catalogItems.findBySku(workspace.id, mirador.sku)).toEqual([{ ...repriced, id: mirador.id }]);
  });

  it("keeps one idempotency attempt per key and moves it only by compare-and-set", async () => {
    const { workspace } = await seedWorkspace();
    const s = storage();
    const first = attempt(f, workspace.id);
    expect(await s.idempotencyAttempts.insertIfNew(first)).toBe(true);
    expect(
      await s.idempotencyAttempts.insertIfNew(attempt(f, workspace.id, { idempotencyKey: first.idempotencyKey })),
    ).toBe(false);
    expect(await s.idempotencyAttempts.get(workspace.id, "contacts.update", first.idempotencyKey)).toEqual(first);
    expect(await s.idempotencyAttempts.get(workspace.id, "catalog.search", first.idempotencyKey)).toBeNull();
    const executing = {
      ...first,
      state: "executing" as const,
      version: 2,
      leaseExpiresAt: f.at(30_000),
      updatedAt: f.at(1),
    };
    expect(await s.idempotencyAttempts.update(executing)).toBe(true);
    expect(await s.idempotencyAttempts.update({ ...first, state: "unknown", version: 2 })).toBe(false);
    const confirmed = {
      ...executing,
      state: "confirmed" as const,
      version: 3,
      leaseExpiresAt: null,
      output: { ok: true, nested: ["é"] },
      observedAt: f.at(2),
    };
    expect(await s.idempotencyAttempts.update(confirmed)).toBe(true);
    expect(await s.idempotencyAttempts.get(workspace.id, "contacts.update", first.idempotencyKey)).toEqual(confirmed);
    expect(await s.idempotencyAttempts.update(attempt(f, workspace.id, { version: 2 }))).toBe(false);
  });

  it("stores agent runs with their trace, and tasks listed oldest first by status", async () => {
    const { workspace } = await seedWorkspace();
    const s = storage();
    const run = {
      id: f.id(),
      workspaceId: workspace.id,
      agentId: "sales-bot",
      actorId: null,
      status: "completed" as const,
      trace: [
        {
          capability: "catalog.search",
          input: { search: "2D" },
          outcome: "ok" as const,
          output: [{ sku: "A" }],
          startedAt: f.at(),
          durationMs: 1.5,
        },
      ],
      startedAt: f.at(),
      completedAt: f.at(10),
    };
    await s.agentRuns.insert(run);
    expect(await s.agentRuns.get(workspace.id, run.id)).toEqual(run);
    expect(await s.agentRuns.get(f.id(), run.id)).toBeNull();
    const task = (createdAt: string, status: TaskRecord["status"]): TaskRecord => ({
      id: f.id(),
      workspaceId: workspace.id,
      kind: "policy_review",
      status,
      title: "Review",
      reason: "needs a person",
      capability: "contacts.update",
      input: { contact_id: "c1" },
      actorId: "u1",
      agentId: null,
      createdAt,
    });
    const [later, earlier, done] = [task(f.at(2), "open"), task(f.at(1), "open"), task(f.at(0), "done")];
    for (const t of [later, earlier, done]) await s.tasks.insert(t);
    expect(await s.tasks.get(workspace.id, later.id)).toEqual(later);
    expect(await s.tasks.listByWorkspace(workspace.id, { status: "open" })).toEqual([earlier, later]);
    expect(await s.tasks.listByWorkspace(workspace.id)).toEqual([done, earlier, later]);
  });
}
