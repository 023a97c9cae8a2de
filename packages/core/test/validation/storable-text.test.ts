import { describe, expect, it } from "vitest";
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
