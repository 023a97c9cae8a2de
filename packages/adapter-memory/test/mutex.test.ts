import { describe, expect, it } from "vitest";
import { Mutex } from "../src/mutex.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("Mutex", () => {
  it("runs holders one at a time, in the order they asked, however long each takes", async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    let inside = 0;
    const holder = (name: string, ticks: number) =>
      mutex.run(async () => {
        inside++;
        expect(inside).toBe(1);
        log.push(`${name}:start`);
        for (let i = 0; i < ticks; i++) await tick();
        log.push(`${name}:end`);
        inside--;
        return name;
      });
    const results = await Promise.all([holder("a", 3), holder("b", 0), holder("c", 2), holder("d", 1)]);
    expect(results).toEqual(["a", "b", "c", "d"]);
    expect(log).toEqual(["a:start", "a:end", "b:start", "b:end", "c:start", "c:end", "d:start", "d:end"]);
  });

  it("a holder that throws releases the lock to the next one, and its caller gets the error", async () => {
    const mutex = new Mutex();
    const failing = mutex.run(async () => {
      await tick();
      throw new Error("boom");
    });
    const next = mutex.run(async () => "ran");
    await expect(failing).rejects.toThrow("boom");
    await expect(next).resolves.toBe("ran");
    // Free again: a later holder starts without anyone releasing it.
    await expect(mutex.run(async () => "again")).resolves.toBe("again");
  });

  it("a newcomer arriving while the lock is handed over waits behind the waiters already queued", async () => {
    const mutex = new Mutex();
    const order: string[] = [];
    const first = mutex.run(async () => {
      await tick();
      order.push("first");
    });
    const second = mutex.run(async () => {
      order.push("second");
    });
    await first;
    // `first` is done and `second` holds the lock (handed over) but may not have resumed yet.
    const third = mutex.run(async () => {
      order.push("third");
    });
    await Promise.all([second, third]);
    expect(order).toEqual(["first", "second", "third"]);
  });
});
