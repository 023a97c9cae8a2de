import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeJsonBody } from "@vitrina/core/http";
import { leadPayloadSchema } from "../../src/leads/lead-schema.js";
import { reasonsFromZod } from "../../src/validation.js";

// A lead's metadata is stored as sent. JSON.parse turns a number beyond a double's range (1e400)
// into Infinity, which JSON.stringify, and so every storage, writes as null: such a number is
// refused by its path instead of being changed without a word.
const lead = (metadata: string) =>
  `{"event":"lead.created","source_lead_id":"crm-1","contact":{"phone_e164":"+56911112222"},"metadata":${metadata}}`;

function metadataReasons(metadata: string) {
  const parsed = leadPayloadSchema.safeParse(decodeJsonBody(new TextEncoder().encode(lead(metadata))));
  return parsed.success ? [] : reasonsFromZod(parsed.error);
}

describe("lead metadata numbers (property)", () => {
  it("refuses exactly the numbers a double can't hold, each by its path, and keeps the others as sent", () => {
    const literal = fc
      .tuple(fc.integer({ min: -999, max: 999 }), fc.integer({ min: -400, max: 400 }))
      .map(([mantissa, exponent]) => `${mantissa}e${exponent}`);
    fc.assert(
      fc.property(fc.array(literal, { minLength: 1, maxLength: 4 }), fc.boolean(), (numbers, nested) => {
        const metadata = nested
          ? `{"list":[${numbers.join(",")}]}`
          : `{${numbers.map((n, i) => `"n${i}":${n}`).join(",")}}`;
        // The oracle: Number() reads each literal independently of JSON.parse.
        const expected = numbers.flatMap((n, i) =>
          Number.isFinite(Number(n))
            ? []
            : [
                {
                  field: nested ? `metadata.list[${i}]` : `metadata.n${i}`,
                  reason: expect.stringContaining("too large to store"),
                },
              ],
        );
        expect(metadataReasons(metadata)).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it("names at most 20 of them, and refuses metadata that is not an object as such", () => {
    expect(metadataReasons(`[${Array(100).fill("1e400").join(",")}]`)).toEqual([
      { field: "metadata", reason: "must be an object" },
    ]);
    expect(metadataReasons(`{"a":[${Array(100).fill("1e400").join(",")}]}`)).toHaveLength(20);
  });
});
