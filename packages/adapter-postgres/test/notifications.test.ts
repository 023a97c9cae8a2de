import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createVitrina, silentLogger, type Storage } from "@vitrina/core";
import { emitEvent } from "@vitrina/core/webhooks";
import { logMessagingTransport } from "@vitrina/core/demo";
import { postgresStorage } from "@vitrina/adapter-postgres";
import { SECRET_BOX_KEY, startReceiver, startWebhookHarness } from "../../http-node/test/support/webhook-harness.js";
import { DATABASE_URL, backends, openTestStorage } from "./support.js";

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
describe.each(backends)("cross-process wake-up on %s", (backend) => {
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
    const [created] = await first.storage.events.listByWorkspace(h.workspace.id, { type: "quote.created" });
    await expect(
      first.storage.transaction(async (tx) => {
        await emitEvent(
          tx,
          { clock: h.clock, ids: () => crypto.randomUUID() },
          { workspaceId: h.workspace.id, type: "quote.created", data: created!.data as never },
        );
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
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
