import fc from "fast-check";

/**
 * Characters PostgreSQL cannot store, and their neighbours: U+0000, lone high and low surrogates,
 * a valid surrogate pair (must still work) and U+FFFD (what drivers silently turn lone ones into).
 */
export const hostileUnit = fc.constantFrom("\u0000", "\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uD83D\uDE00", "\uFFFD");

/** String units: mostly ordinary characters, about one in five hostile. */
export const unit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 1, unit: "binary" }) },
  { weight: 1, arbitrary: hostileUnit },
);

/** `fc.string` whose characters include U+0000 and lone surrogates. */
export const hostileString = (constraints: { minLength?: number; maxLength?: number } = {}) =>
  fc.string({ ...constraints, unit });

/** `fc.jsonValue` whose strings (values and keys) include U+0000 and lone surrogates. */
export const hostileJsonValue = () => fc.jsonValue({ stringUnit: unit });

/** `fc.json`, likewise: JSON text whose strings carry them as `\u0000` / `\ud800` escapes. */
export const hostileJson = () => fc.json({ stringUnit: unit });

/** One UTF-16 code unit of a lone surrogate as the WTF-8 bytes a hostile client would send. */
function wtf8Escape(codeUnit: number): string {
  return [0xe0 | (codeUnit >> 12), 0x80 | ((codeUnit >> 6) & 0x3f), 0x80 | (codeUnit & 0x3f)]
    .map((b) => `%${b.toString(16).toUpperCase()}`)
    .join("");
}

/**
 * `encodeURIComponent` that never throws: a lone surrogate (which it refuses) goes out as the
 * percent-escaped bytes a client could still put on the wire.
 */
export function percentEncode(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.charCodeAt(0);
    out += char.length === 1 && code >= 0xd800 && code <= 0xdfff ? wtf8Escape(code) : encodeURIComponent(char);
  }
  return out;
}
