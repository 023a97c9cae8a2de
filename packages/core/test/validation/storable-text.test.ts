import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hostileJsonValue, hostileString } from "../support/hostile-strings.js";
import { assertStorableText, findUnstorableText, isStorableText } from "../../src/validation/storable-text.js";
import { VitrinaError } from "../../src/errors.js";

describe("isStorableText", () => {
  it.each([
    ["plain", "hello", true],
    ["empty", "", true],
    ["a surrogate pair (emoji)", "a\u{1F600}b", true],
    ["U+0000", "a\u0000b", false],
    ["a lone high surrogate", "a\uD800b", false],
    ["a lone high surrogate at the end", "a\uD800", false],
    ["a lone low surrogate", "\uDFFFa", false],
    ["two high surrogates", "\uD800\uD800\uDC00", false],
  ])("%s", (_label, text, storable) => {
    expect(isStorableText(text)).toBe(storable);
  });
});

/** The definition, one code unit at a time: no U+0000, and every surrogate half of a pair. */
function storableByCodeUnit(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0) return false;
    const high = unit >= 0xd800 && unit <= 0xdbff;
    const low = unit >= 0xdc00 && unit <= 0xdfff;
    const next = text.charCodeAt(i + 1);
    if (high && next >= 0xdc00 && next <= 0xdfff) i++;
    else if (high || low) return false;
  }
  return true;
}

describe("isStorableText against its definition", () => {
  afterEach(() => {
    vi.resetModules();
  });

  it("agrees on hostile strings (String.prototype.isWellFormed, as on Node 20)", () => {
    fc.assert(
      fc.property(hostileString({ maxLength: 40 }), (text) => isStorableText(text) === storableByCodeUnit(text)),
    );
  });

  it("agrees on hostile strings in runtimes without isWellFormed (the regular-expression fallback)", async () => {
    const original = Object.getOwnPropertyDescriptor(String.prototype, "isWellFormed");
    // The module picks its check when loaded: load a fresh copy with the method gone.
    delete (String.prototype as { isWellFormed?: unknown }).isWellFormed;
    try {
      vi.resetModules();
      const fallback = await import("../../src/validation/storable-text.js");
      expect(fallback.isStorableText).not.toBe(isStorableText);
      fc.assert(
        fc.property(
          hostileString({ maxLength: 40 }),
          (text) => fallback.isStorableText(text) === storableByCodeUnit(text),
        ),
      );
    } finally {
      if (original !== undefined) Object.defineProperty(String.prototype, "isWellFormed", original);
    }
  });

  it("findUnstorableText finds something exactly when some string or key fails the definition", () => {
    const anyFails = (value: unknown): boolean =>
      typeof value === "string"
        ? !storableByCodeUnit(value)
        : value !== null &&
          typeof value === "object" &&
          Object.entries(value).some(([key, child]) => !storableByCodeUnit(key) || anyFails(child));
    fc.assert(
      fc.property(hostileJsonValue(), (value) => (findUnstorableText(value, "x") !== null) === anyFails(value)),
    );
  });
});

describe("findUnstorableText", () => {
  it("names the nested path, keys included", () => {
    expect(findUnstorableText({ a: { b: ["ok", "x\u0000"] } }, "metadata")).toEqual({
      field: "metadata.a.b.1",
      reason: expect.any(String),
    });
    expect(findUnstorableText({ "k\uDC00": 1 })).toEqual({ field: "k\uDC00", reason: expect.stringMatching(/^key /) });
    expect(findUnstorableText({ a: [1, null, true, "fine"] })).toBeNull();
  });

  it("assertStorableText throws 400 invalid_argument with the field", () => {
    const error = (() => {
      try {
        assertStorableText("a\u0000", "client_id");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(VitrinaError);
    expect(error).toMatchObject({ code: "invalid_argument", reasons: [{ field: "client_id" }] });
  });
});
