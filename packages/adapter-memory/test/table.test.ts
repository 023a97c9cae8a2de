import { describe, expect, it } from "vitest";
import { MemoryTable, type UndoLog } from "../src/table.js";

interface Row {
  id: string;
  owner: string | null;
  createdAt: string;
}

const journal = (): UndoLog & { steps: Array<() => void> } => {
  const steps: Array<() => void> = [];
  return { steps, push: (step) => steps.push(step) };
};
const rollBack = (log: { steps: Array<() => void> }) => {
  for (let i = log.steps.length - 1; i >= 0; i--) log.steps[i]!();
};
const ids = (rows: Row[]) => rows.map((r) => r.id).sort();

describe("MemoryTable plain indexes", () => {
  it("follow rows through insert, move, delete and rollback, from one holder to many and back", () => {
    const table = new MemoryTable<Row>((r) => r.id, {}, { owner: (r) => r.owner });
    const undo = journal();
    table.insert({ id: "a", owner: "x", createdAt: "3" }, undo);
    expect(ids(table.lookupAll("owner", "x"))).toEqual(["a"]);
    table.insert({ id: "b", owner: "x", createdAt: "1" }, undo);
    table.insert({ id: "c", owner: "x", createdAt: "2" }, undo);
    expect(ids(table.lookupAll("owner", "x"))).toEqual(["a", "b", "c"]);
    expect(table.firstOf("owner", "x", (p, q) => p.createdAt.localeCompare(q.createdAt))?.id).toBe("b");

    const moves = journal();
    table.replace({ id: "b", owner: "y", createdAt: "1" }, moves);
    table.delete("c", moves);
    expect(ids(table.lookupAll("owner", "x"))).toEqual(["a"]);
    expect(ids(table.lookupAll("owner", "y"))).toEqual(["b"]);
    table.delete("a", moves);
    expect(table.lookupAll("owner", "x")).toEqual([]);
    expect(table.firstOf("owner", "x", () => 0)).toBeNull();

    rollBack(moves);
    expect(ids(table.lookupAll("owner", "x"))).toEqual(["a", "b", "c"]);
    expect(table.lookupAll("owner", "y")).toEqual([]);
    rollBack(undo);
    expect(table.lookupAll("owner", "x")).toEqual([]);
    expect(table.count(() => true)).toBe(0);
  });

  it("a row without a value (null) is in no index entry, and a replace that keeps the value keeps it once", () => {
    const table = new MemoryTable<Row>((r) => r.id, {}, { owner: (r) => r.owner });
    const undo = journal();
    table.insert({ id: "a", owner: null, createdAt: "1" }, undo);
    table.insert({ id: "b", owner: "x", createdAt: "1" }, undo);
    table.replace({ id: "b", owner: "x", createdAt: "2" }, undo);
    expect(ids(table.lookupAll("owner", "x"))).toEqual(["b"]);
    table.replace({ id: "a", owner: "x", createdAt: "1" }, undo);
    expect(ids(table.lookupAll("owner", "x"))).toEqual(["a", "b"]);
  });

  it("peek hands out the stored row for reading; get and firstOf hand out copies", () => {
    const table = new MemoryTable<Row>((r) => r.id, {}, { owner: (r) => r.owner });
    table.insert({ id: "a", owner: "x", createdAt: "1" }, journal());
    expect(table.peek("a")).toBe(table.peek("a"));
    expect(table.get("a")).not.toBe(table.peek("a"));
    expect(table.firstOf("owner", "x", () => 0)).not.toBe(table.peek("a"));
    expect(table.peek("missing")).toBeNull();
  });
});

describe("MemoryTable.replace", () => {
  it("moves only the index entries whose value changed, and rolls back to the exact previous state", () => {
    const table = new MemoryTable<Row & { phone: string | null }>(
      (r) => r.id,
      { phone: (r) => r.phone },
      { owner: (r) => r.owner },
    );
    const setup = journal();
    table.insert({ id: "a", owner: "x", phone: "1", createdAt: "1" }, setup);
    table.insert({ id: "b", owner: "x", phone: "2", createdAt: "1" }, setup);
    const change = journal();
    table.replace({ id: "a", owner: "x", phone: "1", createdAt: "2" }, change); // no indexed field changes
    table.replace({ id: "b", owner: "y", phone: "3", createdAt: "1" }, change); // both change
    expect(table.lookup("phone", "1")?.createdAt).toBe("2");
    expect(table.lookup("phone", "2")).toBeNull();
    expect(table.lookup("phone", "3")?.id).toBe("b");
    expect(ids(table.lookupAll("owner", "x"))).toEqual(["a"]);
    expect(ids(table.lookupAll("owner", "y"))).toEqual(["b"]);
    rollBack(change);
    expect(table.lookup("phone", "1")?.createdAt).toBe("1");
    expect(table.lookup("phone", "2")?.id).toBe("b");
    expect(table.lookup("phone", "3")).toBeNull();
    expect(ids(table.lookupAll("owner", "x"))).toEqual(["a", "b"]);
    expect(table.lookupAll("owner", "y")).toEqual([]);
    expect(table.replace({ id: "nobody", owner: null, phone: null, createdAt: "1" }, change)).toBe(false);
  });
});
