import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, postgresStorage } from "@vitrina/adapter-postgres";
import { startReceiver, startWebhookHarness } from "../../http-node/test/support/webhook-harness.js";
import { deliveryAnnouncer } from "../src/notifications.js";
import { BEHIND_TRANSACTION_POOLER, DATABASE_URL, fanOutAgainAndRollBack, uniqueSchema } from "./support.js";

/** Every statement a pg Pool runs, with whether it ran inside a checked-out client's BEGIN … COMMIT. */
function recordingPool(pool: pg.Pool) {
  const statements: Array<{ text: string; inTransaction: boolean }> = [];
  const wrapped = new WeakSet<object>();
  const textOf = (config: unknown) => String(typeof config === "string" ? config : (config as { text: string }).text);
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
    statements.push({ text: textOf(config), inTransaction: false });
    return query(config, ...rest);
  };
  const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<pg.PoolClient>;
  // pool.query checks out with a callback (recorded above as one statement); transactions with a promise.
  (pool as unknown as { connect: unknown }).connect = async (callback?: unknown) => {
    if (callback !== undefined) return connect(callback);
    const client = await connect();
    if (wrapped.has(client)) return client;
    wrapped.add(client);
    const clientQuery = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    let open = false;
    // The same client also serves pool.query later (already recorded there): only its transactions count here.
    (client as unknown as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      const text = textOf(config);
      if (text === "BEGIN") open = true;
      if (open) statements.push({ text, inTransaction: text !== "COMMIT" && text !== "ROLLBACK" });
      if (text === "COMMIT" || text === "ROLLBACK") open = false;
      return clientQuery(config, ...rest);
    };
    return client;
  };
  return statements;
}

const notifies = (statements: Array<{ text: string; inTransaction: boolean }>) =>
  statements.filter((s) => s.text.includes("pg_notify"));

// A transaction that runs NOTIFY takes PostgreSQL's database-wide notification lock at COMMIT and
// holds it through the commit's WAL flush, so lead commits that queued webhooks used to commit one
// at a time. The announcement to other processes' workers is now a statement of its own, after the
// commit, and only for one that queued deliveries.
describe.runIf(DATABASE_URL)("announcing committed deliveries on PostgreSQL", () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  async function harness() {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
    const schema = uniqueSchema();
    await migrate(pool, { schema });
    closers.push(async () => {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    });
    const statements = recordingPool(pool);
    const storage = postgresStorage(pool, {
      schema,
      closeDriver: false,
      ...(BEHIND_TRANSACTION_POOLER && { transactionPooler: true }),
    });
    const h = await startWebhookHarness({ storage });
    const receiver = await startReceiver();
    closers.push(receiver.close);
    await h.subscribe(receiver.url);
    return { h, storage, statements };
  }

  it("notifies after the commit, outside it, and not for a rollback or a write that queued nothing", async () => {
    const { h, storage, statements } = await harness();
    statements.length = 0;
    await h.quote(); // a transaction that fans quote.created out to the subscription
    await expect.poll(() => notifies(statements).length).toBe(1);
    expect(notifies(statements)[0]!.inTransaction).toBe(false);
    const commitAt = statements.findIndex((s) => s.text === "COMMIT");
    expect(commitAt).toBeGreaterThanOrEqual(0);
    expect(statements.indexOf(notifies(statements)[0]!)).toBeGreaterThan(commitAt);

    statements.length = 0;
    await expect(fanOutAgainAndRollBack(storage, h)).rejects.toThrow("rolled back");
    // An event nobody subscribes to queues no delivery, so nothing is announced either.
    await storage.events.append({
      id: `evt_${crypto.randomUUID().replace(/-/g, "")}`,
      workspaceId: h.workspace.id,
      type: "contact.created",
      created: new Date().toISOString(),
      data: {},
    });
    await new Promise((r) => setTimeout(r, 200)); // an announcement would have been sent by now
    expect(notifies(statements).map((s) => s.text)).toEqual([]);
  });

  it("announces after the last of 50 concurrent commits, never inside one", async () => {
    const { h, statements } = await harness();
    statements.length = 0;
    await Promise.all(Array.from({ length: 50 }, () => h.quote()));
    const lastCommit = statements.map((s) => s.text).lastIndexOf("COMMIT");
    await expect.poll(() => statements.slice(lastCommit).some((s) => s.text.includes("pg_notify"))).toBe(true);
    expect(notifies(statements).every((s) => !s.inTransaction)).toBe(true);
  });
});

describe("deliveryAnnouncer", () => {
  /** A driver whose statements stay unanswered until the test answers them. */
  function heldDriver() {
    const pending: Array<{ answer: () => void; fail: (error: Error) => void }> = [];
    const db = {
      query: () =>
        new Promise<{ rows: never[]; rowCount: number }>((resolve, reject) =>
          pending.push({ answer: () => resolve({ rows: [], rowCount: 0 }), fail: reject }),
        ),
    };
    return { db, pending };
  }

  it("keeps one announcement in flight and sends one more for every call made meanwhile", async () => {
    const { db, pending } = heldDriver();
    const announcer = deliveryAnnouncer(db as never, "vitrina_deliveries_x", () => {});
    announcer.announce();
    for (let i = 0; i < 10; i++) announcer.announce();
    expect(pending).toHaveLength(1);
    pending[0]!.answer();
    await new Promise((r) => setImmediate(r));
    expect(pending).toHaveLength(2); // the ten calls made meanwhile: one more, after the first
    pending[1]!.answer();
    await new Promise((r) => setImmediate(r));
    expect(pending).toHaveLength(2);
  });

  it("reports a failure and carries on, and sends nothing once stopped", async () => {
    const { db, pending } = heldDriver();
    const errors: unknown[] = [];
    const announcer = deliveryAnnouncer(db as never, "vitrina_deliveries_x", (error) => errors.push(error));
    announcer.announce();
    announcer.announce();
    pending[0]!.fail(new Error("connection terminated"));
    await new Promise((r) => setImmediate(r));
    expect(errors).toHaveLength(1);
    expect(pending).toHaveLength(2);
    announcer.stop();
    pending[1]!.fail(new Error("pool ended"));
    announcer.announce();
    await new Promise((r) => setImmediate(r));
    expect(errors).toHaveLength(1);
    expect(pending).toHaveLength(2);
  });
});
