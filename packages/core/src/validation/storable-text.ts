import { VitrinaError, type FieldReason } from "../errors.js";

/**
 * Text PostgreSQL cannot store: U+0000 (`text` and `jsonb` refuse it, SQLSTATE 22P05/22021) and a
 * lone UTF-16 surrogate (it has no UTF-8 encoding, so drivers send U+FFFD or fail, SQLSTATE 22021).
 * Scanned per code unit on purpose (no `u` flag): a surrogate pair is fine, half of one is not.
 * These patterns are the fallback for runtimes without `String.prototype.isWellFormed` (below).
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Any U+0000 or surrogate at all: a cheap first test that nearly every string passes. */
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

export const UNSTORABLE_TEXT_REASON = "must not contain U+0000 or a lone UTF-16 surrogate";

/**
 * `String.prototype.isWellFormed` (ES2024: Node 20, current browsers and edge runtimes) answers
 * "no lone surrogate" without a regular expression, and at once for Latin-1 strings, which can't
 * hold a surrogate; with `indexOf` for U+0000 it is about three times faster than the patterns.
 * This check runs on every string a request carries and every record an adapter writes.
 */
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** True when `text` can be stored as-is by every adapter: no U+0000 and no lone surrogate. */
export const isStorableText: (text: string) => boolean =
  isWellFormed === undefined
    ? (text) => !SUSPECT.test(text) || !UNSTORABLE.test(text)
    : (text) => text.indexOf("\u0000") === -1 && isWellFormed.call(text);

const UNSTORABLE_EVERYWHERE = new RegExp(UNSTORABLE.source, "g");

/** `text` with each U+0000 and lone surrogate replaced by U+FFFD: a storable copy of text kept for the record. */
export function toStorableText(text: string): string {
  return isStorableText(text) ? text : text.replace(UNSTORABLE_EVERYWHERE, "\uFFFD");
}

/** What makes `text` unstorable, for a reason a sender can act on ("U+0000 (NUL)"), or null. */
export function describeUnstorableText(text: string): string | null {
  if (text.includes("\u0000")) return "U+0000 (NUL)";
  const lone = LONE_SURROGATE.exec(text);
  if (lone !== null) return `a lone UTF-16 surrogate (\\u${lone[0].charCodeAt(0).toString(16).padStart(4, "0")})`;
  return null;
}

/**
 * The first string in `value` (a string, or any array/object nesting, keys included) that
 * `isStorableText` refuses, as `{ field, reason }` with the dotted path under `field`; null if
 * every string is storable. Iterative, so a deeply nested value cannot overflow the stack.
 *
 * @example findUnstorableText({ name: "a\u0000b" }, "lead") // { field: "lead.name", reason: ... }
 */
export function findUnstorableText(value: unknown, field = ""): FieldReason | null {
  return holdsUnstorableText(value) ? locateUnstorableText(value, field) : null;
}

/**
 * Whether any string in `value` (keys included) is unstorable: the walk nearly every call ends
 * with, so it allocates nothing but its stack (the path is only worked out once one is found).
 */
function holdsUnstorableText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === "string") {
      if (!isStorableText(current)) return true;
    } else if (current !== null && typeof current === "object") {
      for (const key of Object.keys(current)) {
        if (!isStorableText(key)) return true;
        stack.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** `findUnstorableText` once `holdsUnstorableText` has found something: the first offender, with its path. */
function locateUnstorableText(value: unknown, field: string): FieldReason | null {
  // Each entry knows its parent and key; the dotted path is built only for the string that fails.
  interface Entry {
    value: unknown;
    parent: Entry | null;
    key: string;
  }
  const pathOf = (entry: Entry): string => {
    const keys: string[] = [];
    for (let at: Entry | null = entry; at?.parent; at = at.parent) keys.push(at.key);
    return keys.reverse().reduce((path, key) => (path === "" ? key : `${path}.${key}`), field);
  };
  const stack: Entry[] = [{ value, parent: null, key: "" }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const current = entry.value;
    if (typeof current === "string") {
      if (!isStorableText(current)) return { field: pathOf(entry), reason: UNSTORABLE_TEXT_REASON };
    } else if (current !== null && typeof current === "object") {
      for (const key of Object.keys(current)) {
        const child: Entry = { value: (current as Record<string, unknown>)[key], parent: entry, key };
        if (!isStorableText(key)) return { field: pathOf(child), reason: `key ${UNSTORABLE_TEXT_REASON}` };
        stack.push(child);
      }
    }
  }
  return null;
}

/**
 * Throws 400 `invalid_argument` naming the field when `value` holds unstorable text. For request
 * parts that are not a JSON body (path, query, form, headers) and for adapters refusing a write.
 */
export function assertStorableText(value: unknown, field: string): void {
  const reason = findUnstorableText(value, field);
  if (reason !== null) {
    throw new VitrinaError("invalid_argument", `${reason.field || "input"} ${UNSTORABLE_TEXT_REASON}`, {
      reasons: [reason],
    });
  }
}
