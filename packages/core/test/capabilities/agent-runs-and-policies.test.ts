import { describe, expect, it } from "vitest";
import { PolicyBlockedError, type CapabilityPolicy } from "@vitrina/core";
import { capabilityHarness } from "./support/harness.js";

describe("agent runs", () => {
  it("records every invocation in the trace and emits agent.run.completed with it on complete", async () => {
    const { vitrina, storage, principal, workspace, seeded, clock } = await capabilityHarness();
    const run = vitrina.capabilities.startRun({ principal: principal(), agentId: "sales-bot" });
    await run.invoke("catalog.search", { search: "BOS" });
    await expect(run.invoke("contacts.get", { contact_id: "missing" })).rejects.toMatchObject({ code: "not_found" });
    await run.invoke(
      "contacts.update",
      { contact_id: seeded.contactIds[1]!, tags: ["interesado"] },
      { idempotencyKey: "run-1" },
    );
    clock.advance(1_000);
    const stored = await run.complete();

    expect(stored.trace.map((t) => [t.capability, t.outcome])).toEqual([
      ["catalog.search", "ok"],
      ["contacts.get", "error"],
      ["contacts.update", "ok"],
    ]);
    expect(stored.trace[1]).toMatchObject({ input: { contact_id: "missing" }, error: { code: "not_found" } });
    expect(stored.trace[2]).toMatchObject({
      output: { ok: true },
      startedAt: "2026-03-01T12:00:00.000Z",
      durationMs: expect.any(Number),
    });
    expect(await storage.agentRuns.get(workspace.id, run.id)).toEqual(stored);
    expect(stored).toMatchObject({
      agentId: "sales-bot",
      actorId: "agent-key-1",
      completedAt: "2026-03-01T12:00:01.000Z",
    });
    const [event] = await storage.events.listByWorkspace(workspace.id, { type: "agent.run.completed" });
    expect(event?.data).toEqual({
      run_id: run.id,
      agent_id: "sales-bot",
      started_at: stored.startedAt,
      completed_at: stored.completedAt,
      trace: stored.trace,
    });
    await expect(run.complete()).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("already completed"),
    });
    await expect(run.invoke("catalog.search", {})).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("already completed"),
    });
  });
});

describe("policies", () => {
  const noTagRemoval: CapabilityPolicy = ({ capability, input }) =>
    capability.name === "contacts.update" && (input as { tags?: string[] }).tags?.length === 0
      ? { block: "removing every tag needs a person" }
      : "allow";

  it("block a command before it runs: a task for a person and policy.blocked, in one transaction", async () => {
    const { vitrina, storage, principal, workspace, seeded } = await capabilityHarness({
      policies: [() => "allow", noTagRemoval],
    });
    const run = vitrina.capabilities.startRun({ principal: principal(), agentId: "cleanup-bot" });
    const error = await run
      .invoke("contacts.update", { contact_id: seeded.contactIds[0]!, tags: [] }, { idempotencyKey: "p1" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(PolicyBlockedError);
    expect(error).toMatchObject({
      code: "policy_blocked",
      reason: "removing every tag needs a person",
      capability: "contacts.update",
    });
    expect(error.toJSON()).toMatchObject({ code: "policy_blocked", taskId: error.taskId });

    const [task] = await storage.tasks.listByWorkspace(workspace.id, { status: "open" });
    expect(task).toMatchObject({
      id: error.taskId,
      kind: "policy_review",
      capability: "contacts.update",
      agentId: "cleanup-bot",
      actorId: "agent-key-1",
      input: { contact_id: seeded.contactIds[0], tags: [] },
    });
    const [event] = await storage.events.listByWorkspace(workspace.id, { type: "policy.blocked" });
    expect(event?.data).toEqual({
      task_id: error.taskId,
      capability: "contacts.update",
      reason: "removing every tag needs a person",
      agent_id: "cleanup-bot",
      actor_id: "agent-key-1",
    });
    expect((await storage.contacts.get(workspace.id, seeded.contactIds[0]!))?.tags).toEqual(["comprador"]);
    expect(await storage.idempotencyAttempts.get(workspace.id, "contacts.update", "p1")).toBeNull();
    expect(run.trace[0]).toMatchObject({ outcome: "blocked", taskId: error.taskId });
  });

  it("let allowed commands and every query through untouched", async () => {
    let seen = 0;
    const counting: CapabilityPolicy = (ctx) => (seen++, noTagRemoval(ctx));
    const { invoke, seeded } = await capabilityHarness({ policies: [counting] });
    await invoke("catalog.search", {});
    expect(seen).toBe(0);
    expect((await invoke("contacts.update", { contact_id: seeded.contactIds[0]!, tags: ["ok"] }, "p2")).output).toEqual(
      { ok: true },
    );
    expect(seen).toBe(1);
  });
});
