import { describe, expect, it } from "vitest";
import { TIMED_OUT, withinDeadline } from "../src/within-deadline.js";

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value));

describe("withinDeadline", () => {
  it("answers the work's result when it comes first, and TIMED_OUT when the deadline does", async () => {
    expect(await withinDeadline(after(5, "done"), 200)).toBe("done");
    expect(await withinDeadline(after(200, "late"), 5)).toBe(TIMED_OUT);
  });

  it("rejects as the work did before the deadline, and leaves a rejection after it unreported", async () => {
    await expect(withinDeadline(Promise.reject(new Error("refused")), 200)).rejects.toThrow("refused");
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const late = new Promise((_resolve, reject) => setTimeout(() => reject(new Error("too late")), 20));
      expect(await withinDeadline(late, 5)).toBe(TIMED_OUT);
      await after(40, null);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("given a function, aborts the signal it passed once the deadline wins, and not before", async () => {
    let early: AbortSignal | undefined;
    expect(await withinDeadline((signal) => ((early = signal), after(5, "done")), 200)).toBe("done");
    await after(20, null);
    expect(early?.aborted).toBe(false);

    let late: AbortSignal | undefined;
    const abandoned = (signal: AbortSignal) =>
      new Promise<string>((_resolve, reject) => {
        late = signal;
        signal.addEventListener("abort", () => reject(signal.reason));
      });
    // The work rejects because of the abort; the answer is still TIMED_OUT, not that rejection.
    expect(await withinDeadline(abandoned, 5)).toBe(TIMED_OUT);
    expect(late?.aborted).toBe(true);
    expect(String(late?.reason)).toContain("deadline of 5 ms passed");
  });
});
