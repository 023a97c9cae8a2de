import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Storage } from "@vitrina/core";
import { assertHostileBatchesHandled } from "../../core/test/whatsapp/hostile-batch.js";
import { whatsAppHarness, type WhatsAppHarness } from "../../core/test/whatsapp/support.js";
import { backends, openTestStorage, waitsOnALock } from "./support.js";

// PGlite runs one transaction at a time, so there these races only queue; on PostgreSQL (READ
// COMMITTED, many connections) they run concurrently, enough times to fail reliably without the
// row locks and unique keys they rely on.
const RUNS = { PGlite: 5, PostgreSQL: 100 } as const;

/** A storage whose transactions can be held open after their work, before they commit. */
function holdableStorage(inner: Storage) {
  let hold: { when: (result: unknown) => boolean; held: () => void; released: Promise<void> } | null = null;
  const storage: Storage = {
    ...inner,
    transaction: (work) =>
      inner.transaction(async (tx) => {
        const result = await work(tx);
        const armed = hold;
        if (armed !== null && armed.when(result)) {
          hold = null;
          armed.held();
          await armed.released;
        }
        return result;
      }),
  };
  /** Holds the next transaction whose result passes `when`; resolves once it is held, with its release. */
  function holdNext(when: (result: unknown) => boolean): { held: Promise<void>; release: () => void } {
    let held!: () => void;
    let release!: () => void;
    const heldPromise = new Promise<void>((resolve) => (held = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    hold = { when, held, released };
    return { held: heldPromise, release };
  }
  return { storage, holdNext };
}

describe.each(backends)("the WhatsApp webhook on %s", (backend) => {
  let opened: Awaited<ReturnType<typeof openTestStorage>>;
  let holdable: ReturnType<typeof holdableStorage>;
  let h: WhatsAppHarness;
  beforeAll(async () => {
    opened = await openTestStorage(backend);
    holdable = holdableStorage(opened.storage);
    h = await whatsAppHarness({ storage: holdable.storage });
  });
  afterAll(async () => {
    await opened.storage.close();
  });

  it("handles hostile signed batches: 200 or a clean refusal, never 5xx, nothing half-written (fast-check)", async () => {
    await assertHostileBatchesHandled(h, backend === "PGlite" ? 40 : 80);
  });

  it(`records a batch delivered twice at once only once (${RUNS[backend]} runs)`, async () => {
    let violations = 0;
    for (let i = 0; i < RUNS[backend]; i++) {
      const waId = `5697${String(1_000_000 + i).padStart(7, "0")}`;
      const batch = h.meta.batch({ messages: [h.meta.text(waId, "hola"), h.meta.text(waId, "BAJA")] });
      const [a, b] = await Promise.all([h.post(batch), h.post(batch)]);
      const contact = await h.contactByPhone(`+${waId}`);
      const thread = contact === null ? [] : await h.thread(contact.id);
      const ledger = contact === null ? [] : await h.vitrina.contacts.consentLedger(h.workspace.id, contact.id);
      const ok =
        a.status === 200 &&
        b.status === 200 &&
        a.json.messages.recorded + b.json.messages.recorded === 2 &&
        thread.length === 2 &&
        ledger.length === 1;
      if (!ok) violations++;
    }
    const started = await h.storage.events.listByWorkspace(h.workspace.id, { type: "conversation.started" });
    const perContact = new Map<unknown, number>();
    for (const event of started)
      perContact.set(event.data.contact_id, (perContact.get(event.data.contact_id) ?? 0) + 1);
    expect({ violations, threadsOpenedTwice: [...perContact.values()].filter((n) => n > 1).length }).toEqual({
      violations: 0,
      threadsOpenedTwice: 0,
    });
  });

  it(`never sends a first message once a BAJA reply committed, and never loses the opt-out (${RUNS[backend]} runs each)`, async () => {
    // Held: the BAJA's transaction has written the opt-out and waits to commit while a consented
    // lead for the same phone registers. The lead must wait for it, then see the opt-out.
    let sentAfterOptOut = 0;
    let didNotWait = 0;
    for (let i = 0; i < RUNS[backend]; i++) {
      const waId = `5698${String(1_000_000 + i).padStart(7, "0")}`;
      expect((await h.lead(`+${waId}`)).outbound.status).toBe("sent");
      const sentBefore = h.messaging.sent.length;
      const { held, release } = holdable.holdNext((result) => (result as { keyword?: string })?.keyword === "opt_out");
      const reply = h.post(h.meta.batch({ messages: [h.meta.text(waId, "BAJA")] }));
      await held;
      const lead = h.lead(`+${waId}`);
      if (backend === "PostgreSQL" && !(await waitsOnALock(opened.db, lead, "contacts_phone_key"))) didNotWait++;
      release();
      await reply;
      if ((await lead).outbound.status !== "blocked" || h.messaging.sent.length !== sentBefore) sentAfterOptOut++;
    }
    // Free: the two race with no help; whichever wins, the opt-out holds for every later lead.
    let lost = 0;
    for (let i = 0; i < RUNS[backend]; i++) {
      const waId = `5699${String(1_000_000 + i).padStart(7, "0")}`;
      await h.lead(`+${waId}`);
      await Promise.all([h.post(h.meta.batch({ messages: [h.meta.text(waId, "¡Baja!")] })), h.lead(`+${waId}`)]);
      if ((await h.lead(`+${waId}`)).outbound.status !== "blocked") lost++;
    }
    expect({ sentAfterOptOut, didNotWait, lost }).toEqual({ sentAfterOptOut: 0, didNotWait: 0, lost: 0 });
  }, 120_000);

  it(`keeps both timestamps when delivered and read arrive for one message at once (${RUNS[backend]} runs)`, async () => {
    let lostTimestamps = 0;
    for (let i = 0; i < RUNS[backend]; i++) {
      const wamid = h.meta.nextId();
      const now = Date.now();
      await Promise.all([
        h.post(h.meta.batch({ statuses: [h.meta.status(wamid, "delivered", "56900000000", { at: now - 2000 })] })),
        h.post(h.meta.batch({ statuses: [h.meta.status(wamid, "read", "56900000000", { at: now - 1000 })] })),
      ]);
      const state = await h.storage.deliveryReports.get(h.workspace.id, wamid);
      if (state?.status !== "read" || state.deliveredAt === null || state.readAt === null) lostTimestamps++;
    }
    expect(lostTimestamps).toBe(0);
  });
});
