import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVitrina, silentLogger, type Storage } from "@vitrina/core";
import { logMessagingTransport, seedDemoData } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import { backends, openTestStorage } from "./support.js";

describe.each(backends)("capabilities end to end on %s", (backend) => {
  let storage: Storage;
  beforeAll(async () => {
    storage = (await openTestStorage(backend)).storage;
  });
  afterAll(() => storage.close());

  it("answers the six capabilities from PostgreSQL, with a logical attempt and an agent run", async () => {
    const clock = createManualClock("2026-03-01T12:00:00.000Z");
    const vitrina = createVitrina({
      storage,
      clock,
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 2).toString("base64"),
    });
    const workspace = await vitrina.workspaces.create({ name: "PG", ownerUserId: "owner" });
    const seeded = await seedDemoData(vitrina, workspace.id, clock.now());
    const principal = {
      workspaceId: workspace.id,
      scopes: ["catalog:read", "customers:read", "customers:write", "conversations:read", "inventory:read"],
    };
    const invoke = (name: string, input: unknown, idempotencyKey?: string) =>
      vitrina.capabilities.invoke(name, input, { principal, ...(idempotencyKey && { idempotencyKey }) });

    expect(
      ((await invoke("catalog.search", { search: "mirador" })).output as Array<{ sku: string }>).map((i) => i.sku),
    ).toEqual(["MIR-101", "MIR-101-1D", "MIR-101-2D"]);
    expect((await invoke("catalog.search", { limit: 0 })).output).toEqual([]);
    expect((await invoke("contacts.search", { query: "9 1111 2222" })).output).toEqual([
      { name: "María José Ñuñez", phone: "+56911112222", email: "mj.nunez@example.cl" },
    ]);
    expect((await invoke("contacts.get", { contact_id: seeded.contactIds[2]! })).output).toMatchObject({
      tags: ["inversionista"],
      score: null,
    });
    expect(
      (await invoke("conversations.history", { conversation_id: seeded.conversationIds[0]!, limit: 1 })).output,
    ).toEqual([
      {
        sender: "human",
        content: "Se vende aparte; te envío la cotización hoy.",
        created_at: "2026-03-01T10:23:00.000Z",
      },
    ]);
    expect((await invoke("inventory.check", { sku: "bos-220" })).output).toMatchObject({
      found: true,
      sku: "BOS-220",
      stock: 1,
      available: true,
    });

    const change = { contact_id: seeded.contactIds[1]!, email: "pedro@nuevo.cl", tags: ["pg"] };
    expect((await invoke("contacts.update", change, "pg-1")).output).toEqual({ ok: true });
    expect((await invoke("contacts.update", change, "pg-1")).provenance.freshness).toBe("recorded");
    expect(await storage.idempotencyAttempts.get(workspace.id, "contacts.update", "pg-1")).toMatchObject({
      state: "confirmed",
      version: 3,
      output: { ok: true },
    });
    const taken = await invoke("contacts.update", { contact_id: seeded.contactIds[1]!, phone: "+56911112222" }, "pg-2");
    // The capability's own words on every adapter, never PostgreSQL's constraint message.
    expect(taken.output).toEqual({ ok: false, error: "another contact already has this phone" });

    const run = vitrina.capabilities.startRun({ principal, agentId: "pg-bot" });
    await run.invoke("catalog.search", { search: "BOS" });
    const stored = await run.complete();
    expect(await storage.agentRuns.get(workspace.id, run.id)).toEqual(stored);
    expect(
      (await storage.events.listByWorkspace(workspace.id, { type: "agent.run.completed" }))[0]?.data.trace,
    ).toEqual(stored.trace);
  });
  it("refuses input text it can't store by its field before recording an attempt, so the key survives the fix", async () => {
    const vitrina = createVitrina({
      storage,
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 2).toString("base64"),
    });
    const workspace = await vitrina.workspaces.create({ name: "PG text", ownerUserId: "owner" });
    const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56933334444" });
    const principal = { workspaceId: workspace.id, scopes: ["customers:write"] };
    const update = (name: string, idempotencyKey: string) =>
      vitrina.capabilities.invoke("contacts.update", { contact_id: contact.id, name }, { principal, idempotencyKey });
    // Half of a surrogate pair: what a model's output cut mid-emoji leaves behind.
    await expect(update("Casa \ud83c", "rename")).rejects.toMatchObject({
      code: "invalid_payload",
      reasons: [{ field: "name", reason: "must not contain U+0000 or a lone UTF-16 surrogate" }],
    });
    expect(await storage.idempotencyAttempts.get(workspace.id, "contacts.update", "rename")).toBeNull();
    expect((await update("Casa", "rename")).output).toEqual({ ok: true });
    await expect(update("Casa", "key-\u0000")).rejects.toMatchObject({
      code: "invalid_argument",
      reasons: [{ field: "idempotencyKey" }],
    });
  });

  it("stores an agent run whose refused call carried text it can't store (shown as U+FFFD in the trace)", async () => {
    const vitrina = createVitrina({
      storage,
      messaging: logMessagingTransport(silentLogger),
      secretBox: Buffer.alloc(32, 2).toString("base64"),
    });
    const workspace = await vitrina.workspaces.create({ name: "PG trace", ownerUserId: "owner" });
    const run = vitrina.capabilities.startRun({
      principal: { workspaceId: workspace.id, scopes: ["catalog:read"] },
      agentId: "pg-bot",
    });
    await expect(run.invoke("catalog.search", { search: "Casa \ud83c\u0000" })).rejects.toMatchObject({
      code: "invalid_payload",
    });
    const stored = await run.complete();
    expect(stored.trace[0]?.input).toEqual({ search: "Casa \ufffd\ufffd" });
    expect(await storage.agentRuns.get(workspace.id, run.id)).toEqual(stored);
  });
});
