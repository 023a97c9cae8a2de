import { it as vitestIt } from "vitest";
import { printSkip } from "./contract-section.js";

/** The section being registered, and the single tests the adapter disabled in it. */
interface Registering {
  section: string;
  /** `skipTests` keys of this section, by test name, with the adapter's reason. */
  skips: ReadonlyMap<string, string>;
  /** Keys that matched a test, so that a misspelt one fails loudly instead of disabling nothing. */
  matched: Set<string>;
}

let registering: Registering | null = null;

/** The `skipTests` key of a test: its section's name and its own, as `section > test`. */
export const testKey = (section: string, test: string) => `${section} > ${test}`;

/**
 * Runs `register` (a section's `run`, which declares its tests) with `skipTests` in force for
 * that section. Sections declare their tests synchronously, so the section is known to every
 * `it` called meanwhile.
 */
export function registeringSection(
  section: string,
  skipTests: Readonly<Record<string, string>>,
  matched: Set<string>,
  register: () => void,
): void {
  const prefix = testKey(section, "");
  const skips = new Map(
    Object.entries(skipTests)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, reason]) => [key.slice(prefix.length), reason]),
  );
  const outer = registering;
  registering = { section, skips, matched };
  try {
    register();
  } finally {
    registering = outer;
  }
}

/**
 * vitest's `it` for the contract's sections: a test the adapter disabled with `skipTests` (as
 * better-auth's suite lets an adapter disable single tests) registers as skipped, its reason in
 * its name and printed. `it.each`, `it.skip` and the rest are vitest's own.
 */
export const it: typeof vitestIt = new Proxy(vitestIt, {
  apply(target, thisArg, args: Parameters<typeof vitestIt>) {
    const [name] = args;
    const reason = typeof name === "string" ? registering?.skips.get(name) : undefined;
    if (registering === null || reason === undefined) return Reflect.apply(target, thisArg, args);
    registering.matched.add(testKey(registering.section, name as string));
    printSkip(testKey(registering.section, name as string), reason);
    return target.skip(`${name as string} (skipped: ${reason})`, () => {});
  },
});

/** Throws naming every `skipTests` key no test matched (a misspelt or renamed test). */
export function assertEverySkipMatched(
  skipTests: Readonly<Record<string, string>>,
  matched: ReadonlySet<string>,
): void {
  const unmatched = Object.keys(skipTests).filter((key) => !matched.has(key));
  if (unmatched.length > 0)
    throw new Error(
      `runStorageContract: skipTests names no test of the contract: ${unmatched.join("; ")} (keys are "<section> > <test name>")`,
    );
}
