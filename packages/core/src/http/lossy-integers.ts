/**
 * JSON.parse reads the integer literal `12345678901234567891` as the double 12345678901234567168,
 * written back as `12345678901234567000`, and nothing in the parsed value tells it from a literal
 * that comes back as sent, such as `12345678901234567000` (Node 20 has no source-text access in
 * JSON.parse's reviver). This remembers, beside the parsed value, the literal of each number
 * beyond ±2^53 that a double couldn't hold (an integer, or one with a fraction, in any notation),
 * so the fields that promise "stored as sent" can refuse it.
 */

/** Where each remembered literal was: its container in the parsed value, then its key (array indexes as strings). */
const literalsByContainer = new WeakMap<object, Map<string, string>>();

/**
 * A string or a number token of JSON text. On text JSON.parse accepted, scanning from the start
 * and skipping everything else, every match is a whole token: digits and `-` outside strings only
 * start numbers (keys are strings; true, false, null have no digits).
 */
const STRING_OR_NUMBER = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const ZERO = "0".charCodeAt(0);
/** A JSON number token's parts: sign, integer digits, fraction digits, exponent. */
const NUMBER_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * A number literal beyond ±2^53 that comes back as another number. Beyond 2^53 every double is an
 * integer, and what comes back is what JSON.stringify writes for it, in the API and in
 * PostgreSQL's jsonb alike: the shortest digits that read back as that double. So
 * `12345678901234567891` comes back as `12345678901234567000`, and so does `12345678901234567168`,
 * though that one is the double's exact value: a reader that is not JavaScript (SQL, Python, Go)
 * sees a different integer either way. A fraction there is always lost (`12345678901234567891.5`),
 * and the exponent form changes nothing (`1.2345678901234567891e19`); `5e20` and
 * `12345678901234567000.0` come back as the number sent and pass. Smaller numbers are left alone:
 * up to 2^53 an integer is exact, and a decimal fraction comes back in the same shortest form any
 * JSON writer prints. A literal beyond a double's range is Infinity, refused on its own account.
 */
function isLossyLiteral(token: string): boolean {
  const value = Number(token);
  if (!Number.isFinite(value) || Math.abs(value) <= Number.MAX_SAFE_INTEGER) return false;
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = NUMBER_PARTS.exec(token)!;
  // The literal as digits × 10^scale, trailing zeros moved into the scale: the value is finite and
  // beyond 2^53, so a negative scale is a fraction that can't come back, and a positive one is at
  // most about 308, with at most 309 significant digits.
  // Counted with loops, not `/0+$/`, which backtracks quadratically over `000…01`.
  const digits = whole + fraction;
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === ZERO) end--;
  let start = 0;
  while (digits.charCodeAt(start) === ZERO) start++;
  const scale = Number(exponent) - fraction.length + (digits.length - end);
  if (scale < 0) return true;
  return BigInt(sign + digits.slice(start, end)) * 10n ** BigInt(scale) !== writtenBackInteger(value);
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
 * Remembers the lossy number literals of `text`, which JSON.parse read as `value`. Each is found
 * by parsing the text again with those literals quoted: the two values have the same shape (and
 * the same winner among duplicate keys), and a number in `value` that is a string in the second
 * parse is exactly one of them, whatever other strings or equal doubles the body holds. Worth
 * calling only when `value` holds a number beyond ±Number.MAX_SAFE_INTEGER: a lossy literal's
 * double is always one, so the body reader, which visits every number anyway, decides.
 */
export function rememberLossyIntegers(text: string, value: unknown): void {
  let found = false;
  const quoted = text.replace(STRING_OR_NUMBER, (token) => {
    if (token.startsWith('"') || !isLossyLiteral(token)) return token;
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
 * The number literal sent for `container[key]` when its number is not what was sent (the body
 * had `12345678901234567891`, the value is 12345678901234567168); undefined otherwise. Only for
 * values decoded with `lossyIntegers: true` (see decodeJsonBody).
 */
export function lossyIntegerLiteral(container: object, key: string | number): string | undefined {
  return literalsByContainer.get(container)?.get(String(key));
}

/** The words for such a number: what it would become, and that the sender must change it. */
export function describeLossyInteger(literal: string, becomes: "stored" | "recorded"): string {
  const what = /^-?\d+$/.test(literal) ? "an integer" : "a number";
  return `is ${what} beyond ±${Number.MAX_SAFE_INTEGER} that would be ${becomes} as ${String(Number(literal))}, not as sent`;
}
