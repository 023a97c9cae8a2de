import { ConflictError } from "@vitrina/core";
import { copyRecord } from "./copy-record.js";
import { takeInOrder } from "./take-in-order.js";

/**
 * A keyed in-memory table with unique indexes and an undo journal, so a failed transaction can
 * be rolled back exactly. Rows are deep-copied in and out (`copyRecord`): callers can never mutate stored state
 * by holding on to a returned object (which would hide bugs a real database would surface).
 */
export interface UndoLog {
  push(step: () => void): void;
}

/**
 * The keys of the rows sharing one plain index value. Most values are held by one row (a
 * contact's email, its conversations), so that row's key is kept as is and a Set is made only for
 * a second one: a Set per row cost more memory, and garbage-collector time, than the row's own fields.
 */
type KeysOf = string | Set<string>;

const NO_KEYS: readonly string[] = [];

/** `keys` as something to iterate (not a generator: claims walk thousands of pending keys this way). */
function eachKey(keys: KeysOf | undefined): Iterable<string> {
  return keys === undefined ? NO_KEYS : typeof keys === "string" ? [keys] : keys;
}

export class MemoryTable<Row> {
  private readonly rows = new Map<string, Row>();
  private readonly unique = new Map<string, Map<string, string>>();
  private readonly multi = new Map<string, Map<string, KeysOf>>();
  // The index definitions as [name, valueOf] pairs, listed once: every write walks them.
  private readonly uniqueEntries: Array<[string, (row: Row) => string | null]>;
  private readonly indexEntries: Array<[string, (row: Row) => string | null]>;

  /**
   * `uniqueIndexes` behave like unique constraints; `indexes` are plain lookup indexes (many rows
   * per value), so lookups stay O(1) as tables grow instead of scanning.
   */
  constructor(
    private readonly keyOf: (row: Row) => string,
    private readonly uniqueIndexes: Record<string, (row: Row) => string | null> = {},
    private readonly indexes: Record<string, (row: Row) => string | null> = {},
  ) {
    this.uniqueEntries = Object.entries(uniqueIndexes);
    this.indexEntries = Object.entries(indexes);
    for (const [name] of this.uniqueEntries) this.unique.set(name, new Map());
    for (const [name] of this.indexEntries) this.multi.set(name, new Map());
  }

  /** Every row whose plain index `index` has `value`. */
  lookupAll(index: string, value: string): Row[] {
    return [...eachKey(this.multi.get(index)?.get(value))].map((key) => this.get(key)!);
  }

  /** The first row in `compare` order whose plain index `index` has `value`; only that one is copied. */
  firstOf(index: string, value: string, compare: (a: Row, b: Row) => number): Row | null {
    let first: Row | undefined;
    for (const key of eachKey(this.multi.get(index)?.get(value))) {
      const row = this.rows.get(key)!;
      if (first === undefined || compare(row, first) < 0) first = row;
    }
    return first === undefined ? null : copyRecord(first);
  }

  get(key: string): Row | null {
    const row = this.rows.get(key);
    return row === undefined ? null : copyRecord(row);
  }

  /**
   * The stored row itself, not a copy: for a check inside this adapter that only reads a field
   * (the copy `get` makes is the cost of handing a row out, which such a check never does).
   */
  peek(key: string): Readonly<Row> | null {
    return this.rows.get(key) ?? null;
  }

  /** Key of the row holding `value` in unique index `index`, if any. */
  lookup(index: string, value: string): Row | null {
    const key = this.unique.get(index)?.get(value);
    return key === undefined ? null : this.get(key);
  }

  /**
   * Whether unique index `index` already holds `row`'s value: for insert-if-new on a natural key,
   * where only that key means "already there" and a repeated primary key is still a conflict.
   */
  holds(index: string, row: Row): boolean {
    const value = this.uniqueIndexes[index]?.(row) ?? null;
    return value !== null && this.unique.get(index)?.has(value) === true;
  }

  /** Name of the first unique index (or the primary key) `row` would violate, or null. */
  conflictOf(row: Row): string | null {
    if (this.rows.has(this.keyOf(row))) return "primary";
    for (const [name, valueOf] of this.uniqueEntries) {
      const value = valueOf(row);
      if (value !== null && this.unique.get(name)?.has(value)) return name;
    }
    return null;
  }

  insert(row: Row, undo: UndoLog): void {
    const conflict = this.conflictOf(row);
    // `conflict`, as PostgreSQL's unique constraints report it (SQLSTATE 23505), never a plain Error (a
    // 500), and in the postgres adapter's words for a key given twice, not this index's name.
    if (conflict !== null) throw new ConflictError("a record with the same key already exists");
    this.write(row, undo);
  }

  /**
   * Replaces an existing row; returns false when there is none. Only the indexes whose value
   * changed are touched: most replacements (an outcome recorded, a conversation touched) keep every
   * indexed field, and each index update is a lookup in a table as big as the history.
   */
  replace(row: Row, undo: UndoLog): boolean {
    const key = this.keyOf(row);
    const previous = this.rows.get(key);
    if (previous === undefined) return false;
    const stored = copyRecord(row);
    this.rows.set(key, stored);
    this.reindex(previous, stored, key);
    undo.push(() => {
      this.rows.set(key, previous);
      this.reindex(stored, previous, key);
    });
    return true;
  }

  delete(key: string, undo: UndoLog): boolean {
    const previous = this.rows.get(key);
    if (previous === undefined) return false;
    this.unindex(previous);
    this.rows.delete(key);
    undo.push(() => {
      this.rows.set(key, previous);
      this.index(previous);
    });
    return true;
  }

  filter(predicate: (row: Row) => boolean): Row[] {
    const out: Row[] = [];
    for (const row of this.rows.values()) if (predicate(row)) out.push(copyRecord(row));
    return out;
  }

  /**
   * The first `limit` matches in `compare` order that `accept` (asked in that order) keeps, of at
   * most `scan.examine` matches; only those are copied (cheap on big tables). With `scan.within`,
   * only the rows whose plain index holds that value are looked at (the outbox's pending
   * deliveries, not its whole history).
   */
  select(
    predicate: (row: Row) => boolean,
    compare: (a: Row, b: Row) => number,
    limit: number,
    accept: (row: Row) => boolean = () => true,
    scan: { within?: { index: string; value: string }; examine?: number } = {},
  ): Row[] {
    const { within, examine } = scan;
    const matches: Row[] = [];
    if (within === undefined) {
      for (const row of this.rows.values()) if (predicate(row)) matches.push(row);
    } else {
      for (const key of eachKey(this.multi.get(within.index)?.get(within.value))) {
        const row = this.rows.get(key)!;
        if (predicate(row)) matches.push(row);
      }
    }
    return takeInOrder(matches, compare, limit, accept, examine).map(copyRecord);
  }

  count(predicate: (row: Row) => boolean): number {
    let n = 0;
    for (const row of this.rows.values()) if (predicate(row)) n++;
    return n;
  }

  private write(row: Row, undo: UndoLog): void {
    const key = this.keyOf(row);
    const stored = copyRecord(row);
    this.rows.set(key, stored);
    this.index(stored);
    undo.push(() => {
      this.unindex(stored);
      this.rows.delete(key);
    });
  }

  private index(row: Row): void {
    const key = this.keyOf(row);
    for (const [name, valueOf] of this.uniqueEntries) this.addUnique(name, valueOf(row), key);
    for (const [name, valueOf] of this.indexEntries) this.addPlain(name, valueOf(row), key);
  }

  private unindex(row: Row): void {
    const key = this.keyOf(row);
    for (const [name, valueOf] of this.uniqueEntries) this.removeUnique(name, valueOf(row));
    for (const [name, valueOf] of this.indexEntries) this.removePlain(name, valueOf(row), key);
  }

  /** Moves row `key` from `from`'s index values to `to`'s, for the indexes where they differ. */
  private reindex(from: Row, to: Row, key: string): void {
    for (const [name, valueOf] of this.uniqueEntries) {
      const [before, after] = [valueOf(from), valueOf(to)];
      if (before === after) continue;
      this.removeUnique(name, before);
      this.addUnique(name, after, key);
    }
    for (const [name, valueOf] of this.indexEntries) {
      const [before, after] = [valueOf(from), valueOf(to)];
      if (before === after) continue;
      this.removePlain(name, before, key);
      this.addPlain(name, after, key);
    }
  }

  private addUnique(name: string, value: string | null, key: string): void {
    if (value !== null) this.unique.get(name)!.set(value, key);
  }

  private removeUnique(name: string, value: string | null): void {
    if (value !== null) this.unique.get(name)!.delete(value);
  }

  private addPlain(name: string, value: string | null, key: string): void {
    if (value === null) return;
    const byValue = this.multi.get(name)!;
    const keys = byValue.get(value);
    if (keys === undefined) byValue.set(value, key);
    else if (typeof keys !== "string") keys.add(key);
    else if (keys !== key) byValue.set(value, new Set([keys, key]));
  }

  private removePlain(name: string, value: string | null, key: string): void {
    if (value === null) return;
    const byValue = this.multi.get(name)!;
    const keys = byValue.get(value);
    if (keys === key) byValue.delete(value);
    else if (typeof keys !== "string" && keys?.delete(key) && keys.size === 0) byValue.delete(value);
  }
}
