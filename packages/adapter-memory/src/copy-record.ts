/**
 * A deep copy of a stored record: plain objects, arrays, Dates and primitives, which is all a
 * record holds (its JSON columns included). It does what `structuredClone` did here at about a
 * sixth of the cost, which matters because every read and write of the memory tables copies (so a
 * caller can never change stored state through an object it holds). A `__proto__` key, which
 * parsed JSON may carry as an ordinary key, is copied as a key and never sets the prototype.
 */
export function copyRecord<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(copyRecord) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  // Spread copies the own fields in one step, in the source's shape (about a fifth faster than
  // adding them one by one), and defines a `__proto__` key as a plain field; only the nested
  // objects need copying after it.
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of Object.keys(copy)) {
    const field = copy[key];
    if (field === null || typeof field !== "object") continue;
    if (key === "__proto__")
      Object.defineProperty(copy, key, {
        value: copyRecord(field),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = copyRecord(field);
  }
  return copy as T;
}
