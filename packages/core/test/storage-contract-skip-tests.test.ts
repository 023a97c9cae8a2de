import { describe, expect, it as vitestIt } from "vitest";
import { assertEverySkipMatched, it, registeringSection } from "../src/testing/contract-test.js";

// The parts of `skipTests` that the memory adapter's contract-skip-tests.test.ts can't show from
// outside: which keys matched, and the refusal of one that matched nothing.
describe("skipTests in the storage contract", () => {
  const matched = new Set<string>();
  let ran = 0;
  registeringSection(
    "basics",
    { "basics > disabled one": "the adapter can't", "other > x": "another section's" },
    matched,
    () => {
      it("disabled one", () => {
        throw new Error("a disabled test ran");
      });
      it("enabled one", () => {
        ran += 1;
      });
    },
  );

  vitestIt("records the key it disabled, leaves other tests and other sections' keys alone", () => {
    expect(ran).toBe(1);
    expect([...matched]).toEqual(["basics > disabled one"]);
  });

  vitestIt("refuses a key that names no test, naming it", () => {
    expect(() =>
      assertEverySkipMatched({ "basics > disabled one": "r", "basics > answers pong": "r" }, matched),
    ).toThrow(/skipTests names no test of the contract: basics > answers pong/);
    expect(() => assertEverySkipMatched({ "basics > disabled one": "r" }, matched)).not.toThrow();
  });
});
