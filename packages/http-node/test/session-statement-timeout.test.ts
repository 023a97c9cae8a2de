import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { sessionStatementTimeout } from "../src/config/session-statement-timeout.js";
import { recordingLogger } from "./support/recording-logger.js";

// Behind a session pooler each new connection gets its statement timeout by a SET once connected.
// These run on real PostgreSQL (the pooler changes nothing about a SET on a fresh connection).
const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.log("session-statement-timeout: skipped, DATABASE_URL is not set (needs PostgreSQL)");

/** A pg Client that records each statement it is given while an earlier one of its own is unanswered. */
function recordingClient(overlaps: string[], failing?: RegExp) {
  return class RecordingClient extends pg.Client {
    pending = 0;
    // pg's overloads make a faithful override signature unwieldy; the pool calls it with (text, values?, callback?).
    override query(...args: any[]): any {
      const text = String(typeof args[0] === "string" ? args[0] : args[0]?.text);
      if (this.pending > 0) overlaps.push(text);
      if (failing?.test(text))
        return Promise.reject(Object.assign(new Error("refused by the test"), { code: "42501" }));
      this.pending++;
      const settle = () => void this.pending--;
      const callback = typeof args.at(-1) === "function" ? (args.pop() as (...a: unknown[]) => void) : undefined;
      const result = (super.query as (...a: unknown[]) => Promise<unknown>)(...args);
      result.then(settle, settle);
      if (callback === undefined) return result;
      result.then(
        (value) => callback(null, value),
        (error) => callback(error),
      );
      return undefined;
    }
  };
}

describe.skipIf(!DATABASE_URL)("sessionStatementTimeout (a session pooler's per-connection SET)", () => {
  const pools: pg.Pool[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
  });

  function pool(options: ConstructorParameters<typeof pg.Pool>[0]) {
    const made = new pg.Pool({ connectionString: DATABASE_URL, ...options });
    pools.push(made);
    return made;
  }

  it("sets the timeout before a new connection's first statement, without queueing that statement behind it", async () => {
    const overlaps: string[] = [];
    const { logger } = recordingLogger();
    const session = sessionStatementTimeout(250, logger);
    const db = pool({ max: 3, Client: recordingClient(overlaps), onConnect: session.onConnect });
    db.on("connect", session.onConnectEvent);
    // Three at once: each opens a connection of its own.
    const answers = await Promise.all([1, 2, 3].map(() => db.query("SHOW statement_timeout")));
    expect(answers.map((answer) => answer.rows[0].statement_timeout)).toEqual(["250ms", "250ms", "250ms"]);
    expect(db.totalCount).toBe(3);
    // The SET ran on each connection once (the event listener saw the hook had), and alone.
    expect(overlaps).toEqual([]);
  });

  it("fails the checkout when the SET fails, so no connection serves statements without the bound", async () => {
    const overlaps: string[] = [];
    const session = sessionStatementTimeout(250, recordingLogger().logger);
    const db = pool({
      max: 1,
      Client: recordingClient(overlaps, /^SET statement_timeout/),
      onConnect: session.onConnect,
    });
    db.on("connect", session.onConnectEvent);
    await expect(db.query("SELECT 1")).rejects.toThrow("refused by the test");
    expect(db.totalCount).toBe(0); // the connection was closed, not pooled
  });

  it("on a pool without the hook (pg-pool before 3.13), sets it from the connect event and logs a SET that fails", async () => {
    const overlaps: string[] = [];
    const { logger, entries } = recordingLogger();
    const warnings = () => entries.filter((entry) => entry.level === "warn");
    const session = sessionStatementTimeout(250, logger);
    // No onConnect: what an older pool does, which only emits the event.
    const db = pool({ max: 1, Client: recordingClient(overlaps) });
    db.on("connect", session.onConnectEvent);
    const { rows } = await db.query("SHOW statement_timeout");
    expect(rows[0].statement_timeout).toBe("250ms");
    // Why the hook is preferred: the caller's statement was queued behind the SET on one connection
    // (pg prints its DeprecationWarning for it here, once per process: this test means to).
    expect(overlaps).toEqual(["SHOW statement_timeout"]);
    console.log(
      "session-statement-timeout: the pg DeprecationWarning in this file comes from the older pools' path, on purpose",
    );

    const refusing = pool({ max: 1, Client: recordingClient([], /^SET statement_timeout/) });
    refusing.on("connect", session.onConnectEvent);
    expect((await refusing.query("SHOW statement_timeout")).rows).toHaveLength(1);
    await expect.poll(() => warnings().length).toBe(1);
    const [warning] = warnings();
    expect(warning!.message).toMatch(/could not set statement_timeout/);
    expect(warning!.fields).toEqual({ code: "42501", cause: "refused by the test" });
    expect(JSON.stringify(warning)).not.toContain(new URL(DATABASE_URL!).host);
  });
});
