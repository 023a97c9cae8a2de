import { describe, expect, it } from "vitest";
import { capabilityHarness } from "./support/harness.js";

/**
 * A refused call is traced like any other, and its trace is stored when the run completes: what
 * the agent sent there must never stop the run from being stored (and agent.run.completed emitted).
 */
describe("an agent run whose calls were refused for what they carried", () => {
  it("completes, with each refused call in the trace, its unstorable text shown as U+FFFD", async () => {
    const { vitrina, storage, principal, workspace } = await capabilityHarness();
    const run = vitrina.capabilities.startRun({ principal: principal(), agentId: "sales-bot" });
    // Half of a surrogate pair (a model's output cut mid-emoji), U+0000 in a name, a capability
    // name no registry has, an empty name: each refused, each traced.
    await expect(run.invoke("catalog.search", { search: "Casa \ud83c" })).rejects.toMatchObject({
      code: "invalid_payload",
    });
    await expect(run.invoke("catalog.search", { ["se\u0000arch"]: "x" })).rejects.toMatchObject({
      code: "invalid_payload",
    });
    await expect(run.invoke("catalog.\ud800search", {})).rejects.toMatchObject({ code: "not_found" });
    await expect(run.invoke("", {})).rejects.toMatchObject({ code: "not_found" });

    const stored = await run.complete();
    expect(stored.trace.map((t) => [t.capability, t.outcome, t.input, t.error?.code])).toEqual([
      ["catalog.search", "error", { search: "Casa \ufffd" }, "invalid_payload"],
      ["catalog.search", "error", { "se\ufffdarch": "x" }, "invalid_payload"],
      ["catalog.\ufffdsearch", "error", {}, "not_found"],
      ["(no capability name)", "error", {}, "not_found"],
    ]);
    expect(stored.trace[2]?.error?.message).toBe("capability catalog.\ufffdsearch does not exist");
    expect(await storage.agentRuns.get(workspace.id, run.id)).toEqual(stored);
    const [event] = await storage.events.listByWorkspace(workspace.id, { type: "agent.run.completed" });
    expect(event?.data.trace).toEqual(stored.trace);
  });

  it("traces input that is not JSON (a function, a BigInt, a cycle) as JSON would store it, and answers the runtime's refusal", async () => {
    const { vitrina, principal } = await capabilityHarness();
    const run = vitrina.capabilities.startRun({ principal: principal(), agentId: "sales-bot" });
    const cyclic: Record<string, unknown> = { search: "x" };
    cyclic.self = cyclic;
    // Each is refused by validation: the caller hears that, not a DataCloneError from the trace.
    await expect(run.invoke("catalog.search", { search: () => "x" })).rejects.toMatchObject({
      code: "invalid_payload",
    });
    await expect(run.invoke("catalog.search", { limit: 10n })).rejects.toMatchObject({ code: "invalid_payload" });
    await expect(run.invoke("catalog.search", cyclic)).rejects.toMatchObject({ code: "invalid_payload" });

    const stored = await run.complete();
    expect(stored.trace.map((t) => t.input)).toEqual([{}, { limit: "10" }, "[input that cannot be written as JSON]"]);
  });
});
