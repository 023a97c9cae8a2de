import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesToHex, hexToBytes } from "../../src/crypto/encoding.js";

/** What Node's own decoder makes of `hex` when it is strict, even-length hex; null otherwise. */
const reference = (hex: string) =>
  hex.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(hex) ? new Uint8Array(Buffer.from(hex, "hex")) : null;

describe("hexToBytes", () => {
  it("round-trips any bytes, in either case", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const hex = bytesToHex(bytes);
        expect(hexToBytes(hex)).toEqual(bytes);
        expect(hexToBytes(hex.toUpperCase())).toEqual(bytes);
      }),
    );
  });

  it("agrees with a strict reading on any string, PostgreSQL-refused and non-ASCII units included", () => {
    const unit = fc.constantFrom(..."0123456789abcdefABCDEFgGxX@`/:-_ \u0000\ud800\udc00\uff41\u0660é");
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit, maxLength: 12 }), fc.string({ unit: "binary", maxLength: 12 })), (hex) => {
        expect(hexToBytes(hex)).toEqual(reference(hex));
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses odd lengths and every non-hex neighbour of the digit ranges", () => {
    expect(hexToBytes("abc")).toBeNull();
    for (const bad of ["/0", ":0", "@0", "G0", "`0", "g0", "0\u0000", "\uff410"]) expect(hexToBytes(bad)).toBeNull();
    expect(hexToBytes("")).toEqual(new Uint8Array(0));
  });
});
