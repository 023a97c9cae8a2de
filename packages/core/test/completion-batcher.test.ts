import { describe, expect, it } from "vitest";
import type { ClaimCompletion } from "../src/ports/storage.js";
import { createCompletionBatcher, MAX_COMPLETIONS_PER_BATCH } from "../src/webhooks/completion-batcher.js";

const completion = (n: number): ClaimCompletion => ({
  deliveryId: `whd_${n}`,
  workerId: "w1",
  leaseUntil: "2026-01-01T00:01:00.000Z",
  outcome: {
    status: "succeeded",
    attemptCount: 1,
    nextAttemptAt: "2026-01-01T00:00:00.000Z",
    lastError: null,
    deliveredAt: null,
  },
});

/** A repository whose writes finish only when the test says so; it records every batch it gets. */
function heldRepository() {
  const batches: string[][] = [];
  const pending: Array<{ finish: (lost?: Set<string>) => void; fail: (error: Error) => void }> = [];
  return {
    batches,
    pending,
    completeClaims(completions: readonly ClaimCompletion[]) {
      batches.push(completions.map((c) => c.deliveryId));
      return new Promise<boolean[]>((resolve, reject) =>
        pending.push({
          finish: (lost = new Set()) => resolve(completions.map((c) => !lost.has(c.deliveryId))),
          fail: reject,
        }),
      );
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("completion batcher (group commit of finished attempts)", () => {
  it("writes a lone completion on the next turn, and the ones finishing meanwhile together in the next write", async () => {
    const repository = heldRepository();
    const batcher = createCompletionBatcher(repository);
    const first = batcher.complete(completion(1));
    expect(repository.batches).toEqual([]); // not in this turn...
    await settle();
    expect(repository.batches).toEqual([["whd_1"]]); // ...but in the next
    const later = [2, 3, 4].map((n) => batcher.complete(completion(n)));
    await settle();
    expect(repository.batches).toHaveLength(1); // they wait for the write in flight
    repository.pending[0]!.finish();
    expect(await first).toBe(true);
    await settle();
    expect(repository.batches).toEqual([["whd_1"], ["whd_2", "whd_3", "whd_4"]]);
    repository.pending[1]!.finish(new Set(["whd_3"]));
    expect(await Promise.all(later)).toEqual([true, false, true]);
    // Idle again: the next one is written on the next turn.
    void batcher.complete(completion(5));
    await settle();
    expect(repository.batches.at(-1)).toEqual(["whd_5"]);
  });

  it("writes the completions of one turn together, even when a write finishes before the next completes (PGlite)", async () => {
    // A repository that answers at once, as a synchronous engine does: nothing is ever "in flight".
    const batches: string[][] = [];
    const batcher = createCompletionBatcher({
      async completeClaims(completions: readonly ClaimCompletion[]) {
        batches.push(completions.map((c) => c.deliveryId));
        return completions.map(() => true);
      },
    });
    const turn = [1, 2, 3].map((n) => batcher.complete(completion(n)));
    expect(await Promise.all(turn)).toEqual([true, true, true]);
    expect(batches).toEqual([["whd_1", "whd_2", "whd_3"]]);
  });

  it("rejects every completion of a failed write, and carries on with the next", async () => {
    const repository = heldRepository();
    const batcher = createCompletionBatcher(repository);
    const first = batcher.complete(completion(1));
    await settle();
    const second = batcher.complete(completion(2));
    const third = batcher.complete(completion(3));
    repository.pending[0]!.finish();
    await first;
    await settle();
    repository.pending[1]!.fail(new Error("connection terminated"));
    await expect(second).rejects.toThrow("connection terminated");
    await expect(third).rejects.toThrow("connection terminated");
    const fourth = batcher.complete(completion(4));
    await settle();
    repository.pending[2]!.finish();
    expect(await fourth).toBe(true);
  });

  it(`splits a backlog into writes of at most ${MAX_COMPLETIONS_PER_BATCH}`, async () => {
    const repository = heldRepository();
    const batcher = createCompletionBatcher(repository);
    const all = Array.from({ length: 2 * MAX_COMPLETIONS_PER_BATCH + 11 }, (_, n) => batcher.complete(completion(n)));
    for (let i = 0; i < 3; i++) {
      await settle();
      repository.pending[i]!.finish();
    }
    expect(await Promise.all(all)).toEqual(all.map(() => true));
    expect(repository.batches.map((b) => b.length)).toEqual([MAX_COMPLETIONS_PER_BATCH, MAX_COMPLETIONS_PER_BATCH, 11]);
  });
});
