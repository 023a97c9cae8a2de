import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContactRecord, Storage, StorageRepositories } from "@vitrina/core";
import { fixtures } from "@vitrina/core/testing";
import { backends, openTestStorage, waitsOnALock } from "./support.js";

// The first-message claim is one statement outside any transaction. It must still wait for an
// opt-out, or a later lead withdrawing consent, that is being written at that moment and then
// honour it: without the contact's row lock, an UPDATE … FROM contacts reads the contact as of its
// snapshot and claims a message for a person who has just said no. On PostgreSQL the claim is shown
// to be blocked on the lock before the write commits; PGlite runs one transaction at a time, so
// there the claim simply queues behind it.
const RUNS = { PGlite: 5, PostgreSQL: 100 } as const;

/** What runs in the transaction the claim races: it withdraws the contact's permission to be messaged. */
type Withdrawal = (tx: StorageRepositories, contact: ContactRecord, run: number) => Promise<unknown>;

describe.each(backends)("first-message claim against a withdrawal in flight on %s", (backend) => {
  let storage: Storage;
  let db: { query(text: string, params?: unknown[]): Promise<{ rows: any[] }> };
  const f = fixtures();
  beforeAll(async () => {
    ({ storage, db } = await openTestStorage(backend));
  });
  afterAll(async () => {
    await storage.close();
  });

  /** Counts, over the runs, claims that went through despite `withdraw`, and claims that never waited for it. */
  async function race(withdraw: Withdrawal) {
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    const connector = f.connector(workspace.id);
    await storage.connectors.insert(connector);
    let claimedAfterWithdrawal = 0;
    let didNotWait = 0;
    for (let i = 0; i < RUNS[backend]; i++) {
      const lead = f.lead(workspace.id, connector.id);
      // The lead that queued the message recorded the person's consent on their contact.
      const { contact } = await storage.contacts.insertOrGetByPhone(
        f.contact(workspace.id, { whatsappConsent: f.consent(lead.id) }),
      );
      const message = f.outbound(workspace.id, lead.id, contact.id);
      await storage.leads.registerIfNew(
        { ...lead, contactId: contact.id },
        f.opportunity(workspace.id, contact.id, lead.id, { id: lead.opportunityId }),
        message,
      );

      let lockHeld!: () => void;
      let commit!: () => void;
      const held = new Promise<void>((resolve) => (lockHeld = resolve));
      const released = new Promise<void>((resolve) => (commit = resolve));
      const withdrawal = storage.transaction(async (tx) => {
        await withdraw(tx, contact, i);
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
      await withdrawal;
      const result = await claim;
      if (result.claimed !== null) claimedAfterWithdrawal++;
    }
    return { claimedAfterWithdrawal, didNotWait };
  }

  it(`never claims a message whose contact opts out while the claim runs (${RUNS[backend]} runs)`, async () => {
    const counts = await race((tx, contact, i) =>
      tx.contacts.optOutOfWhatsApp(contact.workspaceId, contact.id, f.at(i)),
    );
    expect(counts).toEqual({ claimedAfterWithdrawal: 0, didNotWait: 0 });
  });

  it(`never claims a message whose contact a later lead withdraws consent for while the claim runs (${RUNS[backend]} runs)`, async () => {
    // As lead intake's general path records a known phone's later lead: its consent evidence
    // becomes the contact's latest, here `granted: false`.
    const counts = await race((tx, contact, i) =>
      tx.contacts.resolveForLead({
        ...f.contact(contact.workspaceId, { phoneE164: contact.phoneE164, updatedAt: f.at(i + 1) }),
        whatsappConsent: { ...f.consent(f.id()), granted: false },
      }),
    );
    expect(counts).toEqual({ claimedAfterWithdrawal: 0, didNotWait: 0 });
  });
});
