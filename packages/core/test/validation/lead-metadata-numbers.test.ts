import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeJsonBody } from "@vitrina/core/http";
import { leadPayloadSchema } from "../../src/leads/lead-schema.js";
import { reasonsFromZod } from "../../src/validation.js";

// A lead's metadata is stored as sent. JSON.parse turns a number beyond a double's range (1e400)
// into Infinity, which JSON.stringify, and so every storage, writes as null; and it reads a number
// literal past 2^53 (12345678901234567891, or 12345678901234567891.5) as the nearest double, which
// JSON.stringify writes in its shortest form (12345678901234567000), another number. Such numbers
// are refused by their path instead of being changed without a word.
const lead = (metadata: string) =>
  `{"event":"lead.created","source_lead_id":"crm-1","contact":{"phone_e164":"+56911112222"},"metadata":${metadata}}`;

function metadataReasons(metadata: string) {
  const parsed = leadPayloadSchema.safeParse(
    decodeJsonBody(new TextEncoder().encode(lead(metadata)), { lossyIntegers: true }),
  );
  return parsed.success ? [] : reasonsFromZod(parsed.error);
}

/**
 * A decimal numeral as sign, significant digits and the position of the decimal point, so two
 * numerals denote the same number exactly when they are equal: `1.2e+3`, `1200` and `1200.0` all
 * give `1|12|4`.
 */
function decimal(numeral: string): string {
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = /^(-?)(\d+)(?:\.(\d+))?(?:e\+?(-?\d+))?$/.exec(
    numeral,
  )!;
  const digits = whole + fraction;
  const leading = digits.length - digits.replace(/^0+/, "").length;
  const significant = digits.slice(leading).replace(/0+$/, "");
  return significant === "" ? "0" : `${sign}|${significant}|${whole.length + Number(exponent) - leading}`;
}

/**
 * The oracle: each literal read on its own, independently of JSON.parse, and compared as a decimal
 * with what JSON.stringify writes back for its double: a literal beyond ±2^53 is refused when that
 * denotes another number (below the bound the integer part always survives; see the README).
 */
function expectedReason(literal: string) {
  if (literal.startsWith('"')) return null;
  const value = Number(literal);
  if (!Number.isFinite(value)) return expect.stringContaining("too large to store");
  if (Math.abs(value) <= Number.MAX_SAFE_INTEGER || decimal(literal) === decimal(JSON.stringify(value))) return null;
  const what = /^-?\d+$/.test(literal) ? "an integer" : "a number";
  return `is ${what} beyond ±9007199254740991 that would be stored as ${value}, not as sent: send it as a string`;
}

const sign = fc.constantFrom("", "-");
const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });
const literal = fc.oneof(
  // Short exponent forms, some beyond a double's range (Infinity) or below 2^-1074 (zero).
  fc
    .tuple(fc.integer({ min: -999, max: 999 }), fc.integer({ min: -400, max: 400 }))
    .map(([mantissa, exponent]) => `${mantissa}e${exponent}`),
  // 16–25 digit integers, most of which a double can't hold.
  fc.tuple(sign, fc.constantFrom(..."123456789"), digits(15, 24)).map((parts) => parts.join("")),
  // Integers a double holds exactly, written out in full (powers of two, the integer of a random
  // double): most come back in shortest form, another integer; and integers that come back as
  // written (a random double's shortest form, written out in plain digits).
  fc
    .tuple(sign, fc.double({ min: 2 ** 53, max: 1e25, noNaN: true }))
    .map(([s, d]) => `${s}${d.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 0 })}`),
  fc.tuple(sign, fc.integer({ min: 53, max: 83 })).map(([s, k]) => `${s}${2n ** BigInt(k)}`),
  fc.tuple(sign, fc.double({ min: 2 ** 53, max: 1e25, noNaN: true })).map(([s, d]) => `${s}${BigInt(Math.floor(d))}`),
  // Around 2^53, where the lossy ones begin.
  fc.tuple(sign, fc.bigInt({ min: 2n ** 53n - 3n, max: 2n ** 53n + 9n })).map(([s, n]) => `${s}${n}`),
  // Long digit runs with a fraction or an exponent, on both sides of the bound; shortest forms
  // written with a zero fraction or as mantissa and exponent, which come back as sent.
  fc.tuple(sign, digits(1, 24), digits(1, 5)).map(([s, i, f]) => `${s}${i.replace(/^0+(?=\d)/, "")}.${f}`),
  fc
    .tuple(sign, fc.constantFrom(..."123456789"), digits(15, 24), fc.integer({ min: -30, max: 30 }))
    .map(([s, first, rest, exponent]) => `${s}${first}${rest}e${exponent}`),
  fc
    .tuple(sign, fc.constantFrom(..."123456789"), digits(0, 24), fc.integer({ min: 0, max: 40 }))
    .map(([s, first, rest, exponent]) => `${s}${first}.${rest || "0"}e+${exponent}`),
  fc
    .tuple(sign, fc.double({ min: 2 ** 53, max: 1e25, noNaN: true }), digits(1, 3))
    .map(([s, d, zeros]) => `${s}${BigInt(Math.floor(d))}.${zeros.replace(/\d/g, "0")}`),
  fc.tuple(sign, fc.double({ min: 2 ** 53, max: 1e300, noNaN: true })).map(([s, d]) => `${s}${d}`),
  fc.string({ unit: fc.constantFrom(...'0123456789"\\-e.'), maxLength: 30 }).map((text) => JSON.stringify(text)),
);

describe("lead metadata numbers (property)", () => {
  it("refuses exactly the numbers that would not be stored as sent, each by its path, and keeps the others", () => {
    fc.assert(
      fc.property(fc.array(literal, { minLength: 1, maxLength: 6 }), fc.boolean(), (literals, nested) => {
        const metadata = nested
          ? `{"list":[${literals.join(",")}]}`
          : `{${literals.map((n, i) => `"n${i}":${n}`).join(",")}}`;
        const expected = literals.flatMap((n, i) => {
          const reason = expectedReason(n);
          return reason === null ? [] : [{ field: nested ? `metadata.list[${i}]` : `metadata.n${i}`, reason }];
        });
        expect(metadataReasons(metadata)).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it("tells a lossy literal from one of the same double that comes back as written, in strings and among duplicate keys", () => {
    const lossy = [
      {
        field: "metadata.a",
        reason:
          "is an integer beyond ±9007199254740991 that would be stored as 12345678901234567000, not as sent: send it as a string",
      },
    ];
    // `b` is read as the same double as `a` and comes back as written (its shortest form).
    expect(metadataReasons('{"a":12345678901234567891,"b":12345678901234567000}')).toEqual(lossy);
    expect(metadataReasons('{"b":12345678901234567000,"a":12345678901234567891}')).toEqual(lossy);
    // That double's exact value comes back in the same shortest form, so it is refused too.
    expect(metadataReasons('{"a":12345678901234567168}')).toEqual(lossy);
    expect(metadataReasons('{"a":1152921504606846976}')).toEqual([
      { field: "metadata.a", reason: expect.stringContaining("stored as 1152921504606847000, not as sent") },
    ]);
    // From 1e21 on, JSON writes a double in exponent form: still the integer it denotes that counts.
    expect(metadataReasons('{"a":1000000000000000000000,"b":1180591620717411303424}')).toEqual([
      { field: "metadata.b", reason: expect.stringContaining("stored as 1.1805916207174113e+21, not as sent") },
    ]);
    expect(
      metadataReasons('{"s":"12345678901234567891","t":"\\"12345678901234567891","a":12345678901234567891}'),
    ).toEqual(lossy);
    // Beyond the bound a double has no fraction, and an exponent changes nothing.
    expect(
      metadataReasons(
        '{"a":12345678901234567891.5,"b":1.2345678901234567891e19,"c":12345678901234567000.0,"d":1.2345678901234567e+19}',
      ),
    ).toEqual([
      {
        field: "metadata.a",
        reason:
          "is a number beyond ±9007199254740991 that would be stored as 12345678901234567000, not as sent: send it as a string",
      },
      { field: "metadata.b", reason: expect.stringContaining("is a number beyond ±9007199254740991") },
    ]);
    expect(metadataReasons('{"a":9007199254740993.0,"b":-9007199254740992.5,"c":0.30000000000000001}')).toEqual([
      { field: "metadata.a", reason: expect.stringContaining("stored as 9007199254740992, not as sent") },
      { field: "metadata.b", reason: expect.stringContaining("stored as -9007199254740992, not as sent") },
    ]);
    // Long runs of zeros around the digits (read in linear time, see isLossyLiteral).
    const zeros = "0".repeat(5000);
    expect(metadataReasons(`{"a":0.${zeros}12345678901234567891e5020,"b":1${zeros}e-4980}`)).toEqual([
      { field: "metadata.a", reason: expect.stringContaining("stored as 12345678901234567000, not as sent") },
    ]);
    // JSON.parse keeps the last of duplicate keys: only that one is stored.
    expect(metadataReasons('{"a":12345678901234567891,"a":12345678901234567000}')).toEqual([]);
    expect(metadataReasons('{"a":{"b":12345678901234567891},"a":1}')).toEqual([]);
    expect(metadataReasons('{"a":1,"a":12345678901234567891}')).toEqual(lossy);
    // A key that looks like a number, and __proto__ as a plain key.
    expect(metadataReasons('{"12345678901234567891":1,"__proto__":{"a":12345678901234567891}}')).toEqual([
      { field: "metadata.__proto__.a", reason: lossy[0]!.reason },
    ]);
  });

  it("names at most 20 of them, and refuses metadata that is not an object as such", () => {
    expect(metadataReasons(`[${Array(100).fill("1e400").join(",")}]`)).toEqual([
      { field: "metadata", reason: "must be an object" },
    ]);
    expect(metadataReasons(`[${Array(100).fill("12345678901234567891").join(",")}]`)).toEqual([
      { field: "metadata", reason: "must be an object" },
    ]);
    expect(metadataReasons(`{"a":[${Array(100).fill("1e400").join(",")}]}`)).toHaveLength(20);
    expect(metadataReasons(`{"a":[${Array(50).fill("1e400,12345678901234567891").join(",")}]}`)).toHaveLength(20);
  });

  it("refuses nothing when the body is decoded without lossyIntegers (other routes)", () => {
    const body = new TextEncoder().encode(lead('{"a":12345678901234567891}'));
    expect(leadPayloadSchema.safeParse(decodeJsonBody(body)).success).toBe(true);
  });
});
