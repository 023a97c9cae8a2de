import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyRecord } from "../src/copy-record.js";

// Records as the memory tables hold them: JSON values (lead payloads are untrusted JSON, so keys
// like "__proto__" and strings PostgreSQL would refuse are in the mix) plus Dates.
const text = fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("\u0000", "\ud800", "__proto__", "constructor"));
const record = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true }),
    text,
    fc.date({ noInvalidDate: true }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(text, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** Every object and array inside `value`, to check none is shared with the copy. */
function containers(value: unknown, found: object[] = []): object[] {
  if (value === null || typeof value !== "object") return found;
  found.push(value);
  for (const child of Object.values(value)) containers(child, found);
  return found;
}

describe("copyRecord", () => {
  it("copies what structuredClone copied, sharing no object with the original", () => {
    fc.assert(
      fc.property(record, (value) => {
        const copy = copyRecord(value);
        // toEqual, not toStrictEqual: the latter compares `.constructor`, which a record may have as a key.
        expect(copy).toEqual(structuredClone(value));
        const originals = new Set(containers(value));
        for (const inner of containers(copy)) {
          expect(originals.has(inner)).toBe(false);
          expect([Object.prototype, Array.prototype, Date.prototype]).toContain(Object.getPrototypeOf(inner));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a "__proto__" key from parsed JSON as a key, never as the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"admin": true}, "name": "Ana"}');
    const copy = copyRecord(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { admin?: boolean }).admin).toBeUndefined();
    expect(Object.keys(copy)).toEqual(["__proto__", "name"]);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ admin: true });
  });
});
