import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { takeInOrder } from "../src/take-in-order.js";

// Outbox claims rely on this matching "sort, then keep the first `limit` that accept() takes,
// asking accept() in order" exactly, duplicates and rejections included.
const byValueThenId = (a: { v: number; id: number }, b: { v: number; id: number }) => a.v - b.v || a.id - b.id;

describe("takeInOrder", () => {
  it("keeps what a full sort followed by an in-order filter keeps, asking accept() in the same order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20 })),
        fc.integer({ min: 0, max: 40 }),
        fc.func(fc.boolean()),
        fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
        (values, limit, rule, examine) => {
          const items = values.map((v, id) => ({ v, id }));
          const askedBySort: number[] = [];
          const expected: typeof items = [];
          for (const item of [...items].sort(byValueThenId)) {
            if (expected.length >= limit || askedBySort.length >= (examine ?? Infinity)) break;
            askedBySort.push(item.id);
            if (rule(item.id)) expected.push(item);
          }
          const askedByHeap: number[] = [];
          const got = takeInOrder(
            [...items],
            byValueThenId,
            limit,
            (item) => (askedByHeap.push(item.id), rule(item.id)),
            examine,
          );
          expect(got).toEqual(expected);
          expect(askedByHeap).toEqual(askedBySort);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("takes nothing from nothing, and nothing when the limit is zero", () => {
    expect(takeInOrder([], byValueThenId, 5)).toEqual([]);
    expect(takeInOrder([{ v: 1, id: 1 }], byValueThenId, 0)).toEqual([]);
  });
});
