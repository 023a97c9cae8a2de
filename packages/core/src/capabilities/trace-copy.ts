import { toStorableText } from "../validation/storable-text.js";

/** What a trace records for a value JSON cannot write (a cycle, nesting too deep for the stack). */
export const NOT_JSON = "[input that cannot be written as JSON]";

/** A JSON value with every string and key storable (U+0000 and lone surrogates as U+FFFD). */
function storableJson(_key: string, value: unknown): unknown {
  if (typeof value === "string") return toStorableText(value);
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.every((key) => toStorableText(key) === key)) return value;
  // Object.fromEntries keeps `__proto__` an own key, as JSON.parse made it.
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [toStorableText(key), v]));
}

/**
 * A copy of what an agent sent or got, as the run's trace stores it: JSON (the trace is stored as
 * JSON, and goes out in `agent.run.completed`), BigInts as their digits, text every adapter can
 * store. The trace records refused calls too, whose input may be anything: with a structured
 * clone, a function threw DataCloneError at the caller instead of the runtime's refusal, and one
 * string holding U+0000 or half a surrogate pair made every `complete()` of the run fail.
 */
export function traceCopy(value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  } catch {
    return NOT_JSON;
  }
  return text === undefined ? null : JSON.parse(text, storableJson);
}
