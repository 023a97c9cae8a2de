import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createVitrina, silentLogger, type Storage } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { postgresStorage } from "@vitrina/adapter-postgres";
import { SECRET_BOX_KEY, startReceiver, startWebhookHarness } from "../../http-node/test/support/webhook-harness.js";
import { deliveriesChannel } from "../src/notifications.js";
import {
  BEHIND_TRANSACTION_POOLER,
  DATABASE_URL,
  backends,
  fanOutAgainAndRollBack,
  openTestStorage,
} from "./support.js";

// LISTEN holds a session, which a transaction pooler hands to someone else after each statement:
// behind one, LISTEN goes on a direct connection (`listenPool`, DATABASE_DIRECT_URL), tested
// end to end through PgBouncer in http-node's pgbouncer.e2e.test.ts.
const LISTEN_SKIP_REASON =
  "notifications on PostgreSQL: skipped behind a transaction pooler (VITRINA_DB_POOLER=transaction); LISTEN needs a direct connection, see pgbouncer.e2e.test.ts";
if (BEHIND_TRANSACTION_POOLER) console.log(LISTEN_SKIP_REASON);
const listenBackends = backends.filter((b) => b === "PGlite" || !BEHIND_TRANSACTION_POOLER);

/** A second storage on the same database and schema, as another process would open it. */
async function secondStorage(
  backend: "PGlite" | "PostgreSQL",
  first: { db: unknown; schema: string },
): Promise<Storage> {
  if (backend === "PGlite") return postgresStorage(first.db as never, { schema: first.schema, closeDriver: false });
  return postgresStorage(new pg.Pool({ connectionString: DATABASE_URL, max: 4 }), { schema: first.schema });
}

// Workers in another process learn about new deliveries from PostgreSQL's LISTEN/NOTIFY, not
// from their 30-second sweep.
describe.each(listenBackends)("cross-process wake-up on %s", (backend) => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  /** Vitrina "A" with a subscribed receiver, and a second storage on the same database for "B". */
  async function twoProcessesOneDatabase() {
    const first = await openTestStorage(backend);
    closers.push(() => first.storage.close());
    const other = await secondStorage(backend, first);
    closers.push(() => other.close());
    const h = await startWebhookHarness({ storage: first.storage });
    const receiver = await startReceiver();
    closers.push(receiver.close);
    await h.subscribe(receiver.url);
    return { first, other, h, receiver };
  }

  it("notifies listeners at commit, never for a rolled-back transaction", async () => {
    const { first, other, h, receiver } = await twoProcessesOneDatabase();

    let notified = 0;
    const unlisten = await other.listenForDeliveries!(() => notified++);
    closers.push(unlisten);
    const waitForNotification = async (after: number) => {
      const deadline = Date.now() + 10_000;
      while (notified === after && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    };

    await h.quote();
    await waitForNotification(0);
    expect(notified).toBe(1);

    // The same event again, fanned out to a delivery inside a transaction that then fails.
    await expect(fanOutAgainAndRollBack(first.storage, h)).rejects.toThrow("rolled back");
    // A committed one after it: when its notification arrives, a rolled-back one would have too.
    await h.quote();
    await waitForNotification(1);
    await new Promise((r) => setTimeout(r, 300)); // settle: a stray third notification would land now
    expect(notified).toBe(2);
  });

  it("wakes an idle worker of another Vitrina on the same database right after the commit", async () => {
    const { first, other, h, receiver } = await twoProcessesOneDatabase();

    const elsewhere = createVitrina({
      storage: other,
      messaging: logMessagingTransport(silentLogger),
      secretBox: SECRET_BOX_KEY,
      clock: h.clock,
      webhooks: { allowInsecureLoopback: true },
    });
    // Sweeps are 10 minutes apart: only a notification can make this worker deliver in time.
    const worker = elsewhere.outbox.startWorker({ sweepIntervalMs: 600_000 });
    closers.push(() => worker.stop());
    await new Promise((r) => setTimeout(r, 200)); // its first, empty sweep
    await h.quote();
    const deadline = Date.now() + 10_000;
    while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(receiver.received).toHaveLength(1);
  });
});

// The LISTEN connection can drop under a live worker: a server restart or failover, an idle
// timeout in a proxy or `idle_session_timeout`, an operator's pg_terminate_backend. It used to
// stay dropped for the life of the process, so every later commit in another process waited for
// the 30-second sweep. Only real PostgreSQL has a connection to drop.
describe.runIf(DATABASE_URL && !BEHIND_TRANSACTION_POOLER)("a dropped LISTEN connection on PostgreSQL", () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  it("is listened on again, so other processes' commits keep waking workers at once (5 drops)", async () => {
    const first = await openTestStorage("PostgreSQL");
    closers.push(() => first.storage.close());
    const other = await secondStorage("PostgreSQL", first);
    closers.push(() => other.close());
    const h = await startWebhookHarness({ storage: first.storage });
    await h.subscribe("https://93.184.216.34/hooks");
    const pool = first.db as pg.Pool;
    const listen = `LISTEN ${deliveriesChannel(first.schema)}`;
    const listeners = async () =>
      (await pool.query("SELECT pid FROM pg_stat_activity WHERE query = $1", [listen])).rows.map((r) => r.pid);

    let notified = 0;
    const unlisten = await other.listenForDeliveries!(() => notified++);
    closers.push(unlisten);
    for (let drop = 0; drop < 5; drop++) {
      const [pid] = await listeners();
      expect(pid, `drop ${drop}: a connection listens`).toBeDefined();
      await pool.query("SELECT pg_terminate_backend($1)", [pid]);
      const deadline = Date.now() + 5_000;
      let now = await listeners();
      while ((now.length === 0 || now.includes(pid)) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        now = await listeners();
      }
      // Reconnecting calls the listener once (commits meanwhile were announced to no one): let
      // that pass, so only the commit below can count.
      await new Promise((r) => setTimeout(r, 300));
      const before = notified;
      await h.quote();
      const wake = Date.now() + 2_000;
      while (notified === before && Date.now() < wake) await new Promise((r) => setTimeout(r, 10));
      expect(notified, `drop ${drop}: notified after the connection was dropped`).toBeGreaterThan(before);
    }
  });

  it("listens on a connection of its own, so a pool of one still runs statements while a worker listens", async () => {
    const first = await openTestStorage("PostgreSQL");
    closers.push(() => first.storage.close());
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    const storage = postgresStorage(pool, { schema: first.schema });
    closers.push(() => storage.close());
    const unlisten = await storage.listenForDeliveries!(() => {});
    closers.push(unlisten);
    // The LISTEN used to hold one of the pool's clients: with max 1, this transaction waited forever.
    expect(pool.totalCount).toBe(0);
    expect(await storage.transaction(async () => "ran")).toBe("ran");
    const listening = await pool.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = $1", [
      `LISTEN ${deliveriesChannel(first.schema)}`,
    ]);
    expect(listening.rows[0].n).toBe(1);
  });
});
