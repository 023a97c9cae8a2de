import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLeadHarness, type LeadHarness } from "../../http-node/test/support/lead-harness.js";
import { seedPerson, type Finding } from "../../http-node/test/support/person-scenario.js";
import { memoryStorageOver } from "../src/memory-storage.js";
import { createMemoryState, type MemoryState } from "../src/state.js";
import { MemoryTable } from "../src/table.js";

/** Every row of every table of the state, as JSON, searched for each needle: a new table is scanned too. */
function scanState(state: MemoryState, needles: string[]): Finding[] {
  const findings: Finding[] = [];
  const tables = Object.entries(state).filter(([, table]) => table instanceof MemoryTable);
  expect(tables.length).toBeGreaterThan(20);
  for (const [name, table] of tables) {
    const text = JSON.stringify((table as MemoryTable<object>).filter(() => true));
    for (const needle of needles) if (text.includes(needle)) findings.push({ where: name, needle });
  }
  return findings;
}

describe("a person's erasure in the memory store", () => {
  let h: LeadHarness;
  const state = createMemoryState();
  beforeAll(async () => {
    h = await startLeadHarness({ storage: memoryStorageOver(state) });
  });
  afterAll(async () => {
    await h.close();
  });

  it("leaves none of the person's phone, email, name or words in any table", async () => {
    const person = await seedPerson(h);
    const bystander = await seedPerson(h);
    const before = scanState(state, person.needles);
    expect(new Set(before.map((f) => f.needle))).toEqual(new Set(person.needles));
    const erasure = await h.vitrina.privacy.eraseContact({
      workspaceId: h.workspace.id,
      contactId: person.contactId,
      requestedBy: "test",
    });
    expect(erasure.counts).toMatchObject({ contacts: 1, leads: 2, attempts: 1 });
    const after = scanState(state, person.needles);
    console.info(`[memory] erasure scan: ${before.length} findings before, ${after.length} after`);
    expect(after).toEqual([]);
    expect(scanState(state, [bystander.name]).length).toBeGreaterThan(0);
  });
});
