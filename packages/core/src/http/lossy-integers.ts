/**
 * JSON.parse reads the integer literal `12345678901234567891` as the double 12345678901234567168,
 * written back as `12345678901234567000`, and nothing in the parsed value tells it from a literal
 * that comes back as sent, such as `12345678901234567000` (Node 20 has no source-text access in
 * JSON.parse's reviver). This remembers, beside the parsed value, the literal
 * of each integer a double couldn't hold, so the fields that promise "stored as sent" can refuse it.
 */

/** Where each remembered literal was: its container in the parsed value, then its key (array indexes as strings). */
const literalsByContainer = new WeakMap<object, Map<string, string>>();

/**
 * A string or a number token of JSON text. On text JSON.parse accepted, scanning from the start
 * and skipping everything else, every match is a whole token: digits and `-` outside strings only
 * start numbers (keys are strings; true, false, null have no digits).
 */
const STRING_OR_NUMBER = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
/** Integers up to 15 digits are below 2^53, always exact (JSON allows no leading zeros). */
const INTEGER_LITERAL = /^-?\d{16,}$/;

/**
 * An integer literal (no fraction, no exponent) that comes back as another integer. What comes
 * back is what JSON.stringify writes for its double, in the API and in PostgreSQL's jsonb alike:
 * the shortest digits that read back as that double. So `12345678901234567891` comes back as
 * `12345678901234567000`, and so does `12345678901234567168`, though that one is the double's
 * exact value: a reader that is not JavaScript (SQL, Python, Go) sees a different integer either
 * way. Decimal fractions are left alone: a double's shortest form is how any JSON writer prints it,
 * so `0.1` comes back as sent. A literal beyond a double's range is Infinity, refused on its own account.
 */
function isLossyInteger(token: string): boolean {
  if (!INTEGER_LITERAL.test(token)) return false;
  const value = Number(token);
  return Number.isFinite(value) && BigInt(token) !== writtenBackInteger(value);
}

/** The integer JSON.stringify writes for the integral double `value`: plain digits, or from 1e21 on `d.ddde+N`. */
function writtenBackInteger(value: number): bigint {
  const text = String(value);
  const exponential = /^(-?)(\d)(?:\.(\d+))?e\+(\d+)$/.exec(text);
  if (exponential === null) return BigInt(text);
  const [, sign, first, fraction = "", exponent] = exponential;
  return BigInt(`${sign}${first}${fraction}`) * 10n ** BigInt(Number(exponent) - fraction.length);
}

/**
 * Remembers the lossy integer literals of `text`, which JSON.parse read as `value`. Each is found
 * by parsing the text again with those literals quoted: the two values have the same shape (and
 * the same winner among duplicate keys), and a number in `value` that is a string in the second
 * parse is exactly one of them, whatever other strings or equal doubles the body holds. Worth
 * calling only when `value` holds a number beyond ±Number.MAX_SAFE_INTEGER: a lossy literal's
 * double is always one, so the body reader, which visits every number anyway, decides.
 */
export function rememberLossyIntegers(text: string, value: unknown): void {
  let found = false;
  const quoted = text.replace(STRING_OR_NUMBER, (token) => {
    if (token.startsWith('"') || !isLossyInteger(token)) return token;
    found = true;
    return `"${token}"`;
  });
  if (found) remember(value, JSON.parse(quoted));
}

/** Recursive: the body reader has already bounded the depth. */
function remember(value: unknown, quoted: unknown): void {
  if (value === null || typeof value !== "object" || quoted === null || typeof quoted !== "object") return;
  const container = value as Record<string, unknown>;
  for (const [key, quotedChild] of Object.entries(quoted)) {
    const child = container[key];
    if (typeof child === "number" && typeof quotedChild === "string") {
      let literals = literalsByContainer.get(container);
      if (literals === undefined) literalsByContainer.set(container, (literals = new Map()));
      literals.set(key, quotedChild);
    } else remember(child, quotedChild);
  }
}

/**
 * The integer literal sent for `container[key]` when its number is not what was sent (the body
 * had `12345678901234567891`, the value is 12345678901234567168); undefined otherwise. Only for
 * values decoded with `lossyIntegers: true` (see decodeJsonBody).
 */
export function lossyIntegerLiteral(container: object, key: string | number): string | undefined {
  return literalsByContainer.get(container)?.get(String(key));
}

/** The words for such a number: what it would become, and that the sender must change it. */
export function describeLossyInteger(literal: string, becomes: "stored" | "recorded"): string {
  return `is an integer beyond ±${Number.MAX_SAFE_INTEGER} that would be ${becomes} as ${String(Number(literal))}, not as sent`;
}
