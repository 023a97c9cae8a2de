import { serialize } from "pg-protocol";
import type { PostgresDriver, Queryable } from "./driver.js";
import type { RunNamed } from "./prepared-statements.js";

/** The backend messages PGlite hands back, parsed; only the fields read here are named. */
type BackendMessage =
  | { name: "parameterDescription"; dataTypeIDs: number[] }
  | { name: "rowDescription"; fields: Array<{ name: string; dataTypeID: number }> }
  | { name: "dataRow"; fields: Array<string | null> }
  | { name: "commandComplete"; text: string }
  | { name: string };

/**
 * The members of a PGlite instance (0.4 and later) a named statement is sent with. All are public:
 * `execProtocolStream` runs wire-protocol messages and returns them parsed; `runExclusive` holds the
 * query lock, `_runExclusiveTransaction` the lock a `transaction()` holds from BEGIN to COMMIT
 * (what PGlite's own `query` takes outside a transaction), and `_checkReady` is the check its
 * `query` makes first; `serializers` and `parsers` are the type conversions its `query` applies,
 * array types included.
 */
interface PGliteProtocol {
  execProtocolStream(message: Uint8Array, options?: { syncToFs?: boolean }): Promise<BackendMessage[]>;
  runExclusive<T>(work: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(work: () => Promise<T>): Promise<T>;
  serializers: Record<number, (value: unknown) => string>;
  parsers: Record<number, (text: string, typeId: number) => unknown>;
  /** Refuses once the instance is closing or closed, and waits for it to start. */
  _checkReady(): Promise<void>;
}

function speaksProtocol(db: PostgresDriver): db is PostgresDriver & PGliteProtocol {
  const p = db as Partial<PGliteProtocol>;
  return (
    typeof p.execProtocolStream === "function" &&
    typeof p.runExclusive === "function" &&
    typeof p._runExclusiveTransaction === "function" &&
    typeof p._checkReady === "function" &&
    typeof p.serializers === "object" &&
    typeof p.parsers === "object"
  );
}

/**
 * Per PGlite instance, the statements prepared on it and their parameter types. An instance is one
 * session, so two storages sharing it (two schemas, a test's second storage) share its statements:
 * the same text has the same name in both, and preparing it twice would fail.
 */
const preparedOn = new WeakMap<object, Map<string, number[]>>();

/** SQLSTATE 26000: the name is not prepared on the session (a `DEALLOCATE ALL` or `DISCARD ALL` ran on it). */
const isUnknownStatement = (error: unknown) => (error as { code?: string })?.code === "26000";

/** What PGlite's `query` returns, built the same way from the same messages and parsers. */
function resultOf(messages: BackendMessage[], parsers: PGliteProtocol["parsers"]) {
  let fields: Array<{ name: string; dataTypeID: number }> = [];
  const rows: Array<Record<string, unknown>> = [];
  let rowCount: number | undefined;
  for (const message of messages) {
    if (message.name === "rowDescription") fields = (message as { fields: typeof fields }).fields;
    else if (message.name === "dataRow") {
      const values = (message as { fields: Array<string | null> }).fields;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) {
        const { name, dataTypeID } = fields[i]!;
        const text = values[i] ?? null;
        const parse = parsers[dataTypeID];
        row[name] = text === null ? null : parse ? parse(text, dataTypeID) : text;
      }
      rows.push(row);
    } else if (message.name === "commandComplete") {
      const count = Number((message as { text: string }).text.split(" ").pop());
      if (Number.isInteger(count)) rowCount = count;
    }
  }
  return { rows, rowCount, affectedRows: rowCount };
}

/**
 * Named prepared statements on PGlite, whose `query` parses and plans every statement again (it
 * has no statement names) and sends six protocol round trips through WebAssembly for each. PGlite
 * runs the planner on the process's own thread, so that was most of a lead's CPU on the embedded
 * default: a delivery claim took 1.3–2.8 ms through `query` and 0.27 ms prepared. A statement is
 * prepared once per instance (Parse and Describe, for its parameter types); each call is then one
 * batch of Bind, Describe, Execute and Sync.
 *
 * Outside a transaction the statement takes the lock PGlite's own `query` takes, so it never lands
 * inside another caller's `transaction()`; inside one (`inTransaction`), only the query lock, as
 * the transaction's own `query` does. Returns undefined for a driver without these members (an
 * older PGlite, a wrapper): its statements go through `query`, unnamed.
 */
export function pgliteStatements(driver: PostgresDriver): RunNamed | undefined {
  if (!speaksProtocol(driver)) return undefined;
  const db: PGliteProtocol = driver;
  const statements = preparedOn.get(db) ?? new Map<string, number[]>();
  preparedOn.set(db, statements);
  // As PGlite's own `query` and `transaction()` do: check first, so calls take the locks in the
  // order they were made (a claim made after a transaction began waits for it), then check again
  // under the locks, since a `close()` may have taken them first.
  async function exclusive<T>(inTransaction: boolean, work: () => Promise<T>): Promise<T> {
    if (inTransaction) return db.runExclusive(work);
    await db._checkReady();
    return db._runExclusiveTransaction(() =>
      db.runExclusive(async () => {
        await db._checkReady();
        return work();
      }),
    );
  }

  async function send(name: string, text: string, params: unknown[], inTransaction: boolean) {
    let types = statements.get(name);
    if (types === undefined) {
      const described = await db.execProtocolStream(
        Buffer.concat([serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()]),
        { syncToFs: false },
      );
      const parameters = described.find((m: BackendMessage) => m.name === "parameterDescription");
      types = (parameters as { dataTypeIDs: number[] } | undefined)?.dataTypeIDs ?? [];
      statements.set(name, types);
    }
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const toText = db.serializers[types[i]!];
      return toText ? toText(value) : String(value);
    });
    const messages = await db.execProtocolStream(
      Buffer.concat([
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      // Outside a transaction the write is committed here: flush it to the data directory, as
      // PGlite's `query` does. Inside one, the COMMIT does.
      { syncToFs: !inTransaction },
    );
    return resultOf(messages, db.parsers);
  }

  return (_q: Queryable, name, text, params, inTransaction) =>
    exclusive(inTransaction, () =>
      send(name, text, params, inTransaction).catch((error: unknown) => {
        if (!isUnknownStatement(error)) throw error;
        // Deallocated behind our back: prepare it again, once, where a retry is safe.
        statements.delete(name);
        if (inTransaction) throw error;
        return send(name, text, params, inTransaction);
      }),
    );
}
