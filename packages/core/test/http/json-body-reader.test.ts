import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError, VitrinaError } from "@vitrina/core";
import { decodeJsonBody, readJsonBody } from "@vitrina/core/http";
import { statusForCode } from "../../src/http/json.js";
import { formatJsonPath, type JsonPathSegment } from "../../src/http/read-json.js";

// The one JSON body reader every route uses. Oracles here are independent of its code:
// String.prototype.isWellFormed (Node 20) and a recursive depth count.
const encode = (text: string) => new TextEncoder().encode(text);
const isStorable = (text: string) =>
  !text.includes("\u0000") && (text as unknown as { isWellFormed(): boolean }).isWellFormed();

function everyText(value: unknown, ok: (text: string) => boolean): boolean {
  if (typeof value === "string") return ok(value);
  if (Array.isArray(value)) return value.every((v) => everyText(v, ok));
  if (value !== null && typeof value === "object")
    return Object.entries(value).every(([k, v]) => ok(k) && everyText(v, ok));
  return true;
}
function depth(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depth));
}

// Strings built from code units that include U+0000, both surrogate halves and a valid pair, so
// lone surrogates appear on their own, at the edges and next to each other.
const hostileString = fc
  .array(
    fc.constantFrom("\u0000", "\ud800", "\udbff", "\udc00", "\udfff", "\ud83d\ude00", "a", "é", "\u0001", '"', "\\"),
    { maxLength: 6 },
  )
  .map((units) => units.join(""));
const hostileJson = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    fc.string(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.string()), tie("value"), { maxKeys: 4 }),
  ),
})).value;
/** Nesting past the limit, sometimes. */
const nested = fc.tuple(hostileJson, fc.integer({ min: 0, max: 40 })).map(([leaf, levels]) => {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { k: value };
  return value;
});

function expectClientError(error: unknown): asserts error is VitrinaError {
  expect(error).toBeInstanceOf(VitrinaError);
  expect(statusForCode((error as VitrinaError).code)).toBeLessThan(500);
}

describe("decodeJsonBody (property)", () => {
  it("never fails with anything but a 4xx VitrinaError, whatever the bytes", () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      hostileJson.map((v) => encode(JSON.stringify(v) ?? "null")),
      fc
        .tuple(hostileJson, fc.uint8Array({ minLength: 1, maxLength: 3 }))
        .map(([v, junk]) => new Uint8Array([...encode(JSON.stringify(v) ?? "null"), ...junk])),
    );
    fc.assert(
      fc.property(bytes, (body) => {
        try {
          decodeJsonBody(body);
        } catch (error) {
          expectClientError(error);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("accepts exactly the JSON with storable text nested at most 32 levels, and gives it back unchanged", () => {
    fc.assert(
      fc.property(fc.oneof(hostileJson, nested), (value) => {
        const text = JSON.stringify(value);
        const acceptable = everyText(value, isStorable) && depth(value) <= 32;
        let decoded: unknown;
        try {
          decoded = decodeJsonBody(encode(text));
        } catch (error) {
          expectClientError(error);
          expect(acceptable, `refused ${text}`).toBe(false);
          expect(error).toBeInstanceOf(ValidationError);
          expect((error as ValidationError).reasons.length).toBeGreaterThan(0);
          return;
        }
        expect(acceptable, `accepted ${text}`).toBe(true);
        expect(JSON.stringify(decoded)).toBe(text);
        expect(decoded).toEqual(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("decodeJsonBody", () => {
  const reasonsOf = (text: string) => {
    try {
      decodeJsonBody(encode(text));
    } catch (error) {
      return (error as VitrinaError).reasons;
    }
    throw new Error(`accepted ${text}`);
  };

  it("names the JSON path of unstorable text, keys included, in document order", () => {
    expect(reasonsOf('{"contact":{"name":"A\\u0000"},"metadata":{"a":[1,2,"\\ud800x"]}}')).toEqual([
      { field: "contact.name", reason: "contains U+0000 (NUL), which cannot be stored; remove it" },
      {
        field: "metadata.a[2]",
        reason: "contains a lone UTF-16 surrogate (\\ud800), which cannot be stored; remove it",
      },
    ]);
    expect(reasonsOf('{"metadata":{"k\\u0000":1}}')).toEqual([
      { field: "metadata.k\\u0000", reason: "has a key that contains U+0000 (NUL), which cannot be stored; rename it" },
    ]);
    expect(reasonsOf('"\\udfff"')).toEqual([{ field: "", reason: expect.stringContaining("(\\udfff)") }]);
  });

  it("names every unstorable value and key, each once, in document order (property)", () => {
    // A recursive oracle: an object's keys are read before its values, as JSON.parse gives them.
    const unstorablePaths = (value: unknown, path: JsonPathSegment[] = [], out: string[] = []): string[] => {
      if (typeof value === "string") {
        if (!isStorable(value)) out.push(formatJsonPath(path));
      } else if (Array.isArray(value)) {
        value.forEach((child, index) => unstorablePaths(child, [...path, index], out));
      } else if (value !== null && typeof value === "object") {
        const keys = Object.keys(value);
        for (const key of keys) if (!isStorable(key)) out.push(formatJsonPath([...path, key]));
        for (const key of keys.filter(isStorable))
          unstorablePaths((value as Record<string, unknown>)[key], [...path, key], out);
      }
      return out;
    };
    fc.assert(
      fc.property(hostileJson, (value) => {
        const expected = unstorablePaths(value);
        // Past 20 reasons the answer is cut short, which the oracle doesn't model.
        fc.pre(expected.length > 0 && expected.length <= 20);
        expect(reasonsOf(JSON.stringify(value)).map((r) => r.field)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("names at most 20 values, even when one object has more bad keys than that", () => {
    const badKeys = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}\u0000`, 1]));
    const reasons = reasonsOf(JSON.stringify({ metadata: badKeys, contact: { name: "\u0000" } }));
    expect(reasons).toHaveLength(20);
    expect(reasons[0]).toEqual({
      field: "metadata.k0\\u0000",
      reason: "has a key that contains U+0000 (NUL), which cannot be stored; rename it",
    });
    expect(reasons.at(-1)!.field).toBe("metadata.k19\\u0000");
  });

  it("names a too-deep value by its first two path segments", () => {
    expect(reasonsOf(`{"metadata":{"blob":${"[".repeat(50_000)}${"]".repeat(50_000)}}}`)).toEqual([
      { field: "metadata.blob", reason: "nests deeper than 32 levels" },
    ]);
  });

  it("refuses bytes that are not UTF-8 (never decoded with U+FFFD) and JSON syntax errors with 400 malformed_json", () => {
    for (const body of [
      new Uint8Array([0x22, 0xff, 0x22]),
      new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22]),
      encode("{"),
      encode(""),
    ]) {
      expect(() => decodeJsonBody(body)).toThrow(expect.objectContaining({ code: "malformed_json" }));
    }
  });
});

describe("readJsonBody", () => {
  const post = (body: BodyInit, contentType = "application/json") =>
    new Request("http://vitrina.test/x", { method: "POST", headers: { "content-type": contentType }, body });

  it("refuses more than maxBytes with 413, exactly at the limit not (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.integer({ min: 2, max: 60 }), async (text, maxBytes) => {
        const body = JSON.stringify(text);
        const size = encode(body).byteLength;
        const outcome = await readJsonBody(post(body), { maxBytes }).then(
          () => "ok",
          (error: VitrinaError) => error.code,
        );
        if (size > maxBytes) expect(outcome).toBe("payload_too_large");
        else expect(outcome).not.toBe("payload_too_large");
      }),
    );
  });

  it("answers 415 unless the body is declared JSON, when the route asks for it", async () => {
    await expect(readJsonBody(post("{}", "text/plain"), { maxBytes: 10 })).rejects.toMatchObject({
      code: "unsupported_media_type",
    });
    await expect(
      readJsonBody(post("{}", "text/plain"), { maxBytes: 10, requireJsonContentType: false }),
    ).resolves.toEqual({});
  });
});
