import { checkStorableParams, isPgPool, type PostgresDriver, type Queryable } from "./driver.js";

/** One statement and its parameters. */
export interface Statement {
  text: string;
  params: unknown[];
}

type QueryResult = Awaited<ReturnType<Queryable["query"]>>;

/**
 * Runs statements one after another, each in a transaction of its own (a statement sent outside
 * BEGIN commits when it ends), and answers each one's outcome in order. A statement that fails does
 * not stop the ones after it, so each must be harmless when one before it wrote nothing.
 */
export type StatementSequence = (statements: Statement[]) => Promise<PromiseSettledResult<QueryResult>[]>;

/**
 * The sequence for `db`. `runner(q)` is how a statement goes on connection `q` (named or not, with
 * errors mapped).
 *
 * On a pg Pool the statements go on one connection in pg's pipeline mode: written together, so the
 * sequence costs one round trip instead of one per statement. Each still carries its own Sync, so
 * PostgreSQL commits one before it starts the next. A pg without pipeline mode (before 8.23) ignores
 * the flag and sends each statement once the one before it has answered: the same outcomes, one round
 * trip each. On PGlite, or a driver we don't know, the statements go one after another.
 */
export function statementSequence(db: PostgresDriver, runner: (q: Queryable) => Queryable): StatementSequence {
  if (!isPgPool(db)) {
    const q = runner(db);
    return async (statements) => {
      const outcomes: PromiseSettledResult<QueryResult>[] = [];
      for (const { text, params } of statements) outcomes.push(await settle(q.query(text, params)));
      return outcomes;
    };
  }
  return async (statements) => {
    // Text PostgreSQL can't store is refused before anything is sent, for the whole sequence.
    for (const { params } of statements) checkStorableParams(params);
    const client = await db.connect();
    const pipelined = client.pipeline;
    client.pipeline = true;
    try {
      const q = runner(client);
      return await Promise.all(statements.map(({ text, params }) => settle(q.query(text, params))));
    } finally {
      client.pipeline = pipelined;
      // pg-pool drops a client whose connection failed (no longer queryable) on its own.
      client.release();
    }
  };
}

const settle = (promise: Promise<QueryResult>): Promise<PromiseSettledResult<QueryResult>> =>
  promise.then(
    (value) => ({ status: "fulfilled", value }),
    (reason: unknown) => ({ status: "rejected", reason }),
  );
