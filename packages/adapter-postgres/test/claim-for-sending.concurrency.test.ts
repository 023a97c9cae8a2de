import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Storage } from "@vitrina/core";
import { fixtures } from "@vitrina/core/testing";
import { backends, openTestStorage, waitsOnALock } from "./support.js";

// The first-message claim is one statement outside any transaction. It must still wait for an
// opt-out that is being written at that moment and then honour it: without the contact's row lock,
// an UPDATE … FROM contacts reads the contact as of its snapshot and claims a message for a person
// who has just opted out. On PostgreSQL the claim is shown to be blocked on the lock before the
// opt-out commits; PGlite runs one transaction at a time, so there the claim simply queues behind it.
const RUNS = { PGlite: 5, PostgreSQL: 100 } as const;

describe.each(backends)("first-message claim against an opt-out in flight on %s", (backend) => {
  let storage: Storage;
  let db: { query(text: string, params?: unknown[]): Promise<{ rows: any[] }> };
  const f = fixtures();
  beforeAll(async () => {
    ({ storage, db } = await openTestStorage(backend));
  });
  afterAll(async () => {
    await storage.close();
  });

  it(`never claims a message whose contact opts out while the claim runs (${RUNS[backend]} runs)`, async () => {
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    const connector = f.connector(workspace.id);
    await storage.connectors.insert(connector);
    let claimedForOptedOut = 0;
    let didNotWait = 0;
    for (let i = 0; i < RUNS[backend]; i++) {
      const { contact } = await storage.contacts.insertOrGetByPhone(f.contact(workspace.id));
      const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
      const message = f.outbound(workspace.id, lead.id, contact.id);
      await storage.leads.registerIfNew(
        lead,
        f.opportunity(workspace.id, contact.id, lead.id, { id: lead.opportunityId }),
        message,
      );

      let lockHeld!: () => void;
      let commit!: () => void;
      const held = new Promise<void>((resolve) => (lockHeld = resolve));
      const released = new Promise<void>((resolve) => (commit = resolve));
      const optOut = storage.transaction(async (tx) => {
        await tx.contacts.optOutOfWhatsApp(workspace.id, contact.id, f.at(i));
        lockHeld();
        await released;
      });
      if (backend === "PostgreSQL") await held;
      const claim = storage.outbound.claimForSending(message, contact.phoneE164!, {
        status: "queued",
        reason: "handed",
        handedToProviderAt: f.at(i + 1),
        updatedAt: f.at(i + 1),
      });
      if (backend === "PostgreSQL" && !(await waitsOnALock(db, claim, "claimed AS"))) didNotWait++;
      commit();
      await optOut;
      const result = await claim;
      if (result.claimed !== null) claimedForOptedOut++;
    }
    expect({ claimedForOptedOut, didNotWait }).toEqual({ claimedForOptedOut: 0, didNotWait: 0 });
  });
});
