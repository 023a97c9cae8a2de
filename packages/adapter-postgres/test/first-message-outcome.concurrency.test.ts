import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContactRecord, Storage } from "@vitrina/core";
import type { FirstMessageOutcome, FirstMessageThread } from "@vitrina/core/storage";
import { fixtures } from "@vitrina/core/testing";
import { backends, openTestStorage, waitsOnALock } from "./support.js";

// `outbound.recordOutcome` finds or opens the contact's WhatsApp thread in one statement, with no
// contact lock. Two races matter on PostgreSQL at READ COMMITTED: first messages of one contact
// recorded at once (they must share one thread, and nothing may fail on the unique index), and an
// outcome recorded while the active thread is being closed (it must open a new thread once the
// close commits, not fail and not add to a thread that is closed by then). A statement that read
// the active thread with a SELECT would see its starting snapshot and lose both races. PGlite runs
// one transaction at a time, so there the racers simply queue.
const RUNS = { PGlite: 5, PostgreSQL: 100 } as const;
const RACERS = 3;

describe.each(backends)("first-message outcomes racing on one contact on %s", (backend) => {
  let storage: Storage;
  let schema: string;
  let db: { query(text: string, params?: unknown[]): Promise<{ rows: any[] }> };
  const f = fixtures();
  let workspaceId: string;
  let connectorId: string;
  beforeAll(async () => {
    ({ storage, db, schema } = await openTestStorage(backend));
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    const connector = f.connector(workspace.id);
    await storage.connectors.insert(connector);
    workspaceId = workspace.id;
    connectorId = connector.id;
  });
  afterAll(async () => {
    await storage.close();
  });

  async function contactWithMessages(count: number) {
    const { contact } = await storage.contacts.insertOrGetByPhone(f.contact(workspaceId));
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const lead = f.lead(workspaceId, connectorId, { contactId: contact.id });
      const message = f.outbound(workspaceId, lead.id, contact.id, { handedToProviderAt: f.at(1) });
      await storage.leads.registerIfNew(
        lead,
        f.opportunity(workspaceId, contact.id, lead.id, { id: lead.opportunityId }),
        message,
      );
      ids.push(message.id);
    }
    return { contact, ids };
  }
  const sent = (id: string): FirstMessageOutcome => ({
    id,
    status: "sent",
    reason: null,
    providerMessageId: `wamid.${id}`,
    providerAnsweredAt: f.at(2),
    updatedAt: f.at(2),
  });
  function thread(contact: ContactRecord): FirstMessageThread {
    const conversationId = f.id();
    return {
      conversation: f.conversation(workspaceId, contact.id, {
        id: conversationId,
        createdAt: f.at(2),
        updatedAt: f.at(2),
      }),
      message: { id: f.id(), workspaceId, sender: "agent", content: "hola", createdAt: f.at(2) },
      started: {
        id: `evt_${f.id()}`,
        workspaceId,
        type: "conversation.started",
        created: f.at(2),
        data: {
          conversation_id: conversationId,
          contact_id: contact.id,
          channel: "whatsapp",
          started_by: "lead_intake",
        },
      },
      retryUntil: f.at(86_400_000),
    };
  }
  /** Per contact: WhatsApp threads not closed, all threads, messages, conversation.started events. */
  async function threadsOf(contactId: string) {
    const { rows } = await db.query(
      `SELECT
         (SELECT count(*)::int FROM ${schema}.conversations WHERE contact_id = $1 AND status <> 'closed') AS active,
         (SELECT count(*)::int FROM ${schema}.conversations WHERE contact_id = $1) AS threads,
         (SELECT count(*)::int FROM ${schema}.messages m JOIN ${schema}.conversations c ON c.id = m.conversation_id WHERE c.contact_id = $1) AS messages,
         (SELECT count(*)::int FROM ${schema}.events WHERE type = 'conversation.started' AND data->>'contact_id' = $1) AS started`,
      [contactId],
    );
    return rows[0] as { active: number; threads: number; messages: number; started: number };
  }

  it(`outcomes of one contact recorded at once share one new thread (${RUNS[backend]} runs of ${RACERS})`, async () => {
    const violations: unknown[] = [];
    for (let run = 0; run < RUNS[backend]; run++) {
      const { contact, ids } = await contactWithMessages(RACERS);
      const results = await Promise.allSettled(
        ids.map((id) => storage.outbound.recordOutcome(sent(id), thread(contact))),
      );
      const failed = results.filter((r) => r.status === "rejected");
      const opened = results.filter((r) => r.status === "fulfilled" && r.value.opened);
      const counts = await threadsOf(contact.id);
      const expected = { active: 1, threads: 1, messages: RACERS, started: 1 };
      if (failed.length > 0 || opened.length !== 1 || JSON.stringify(counts) !== JSON.stringify(expected)) {
        violations.push({
          run,
          failed: failed.map((r) => String((r as PromiseRejectedResult).reason)),
          opened: opened.length,
          counts,
        });
      }
    }
    expect(violations).toEqual([]);
  });

  it(`an outcome recorded while the active thread is being closed opens a new one (${RUNS[backend]} runs)`, async () => {
    const violations: unknown[] = [];
    let didNotWait = 0;
    for (let run = 0; run < RUNS[backend]; run++) {
      const { contact, ids } = await contactWithMessages(1);
      const active = thread(contact).conversation;
      await storage.conversations.insert(active);
      let closing!: () => void;
      let commit!: () => void;
      const closeHeld = new Promise<void>((resolve) => (closing = resolve));
      const released = new Promise<void>((resolve) => (commit = resolve));
      const close = storage.transaction(async (tx) => {
        await tx.conversations.update({ ...active, status: "closed" });
        closing();
        await released;
      });
      if (backend === "PostgreSQL") await closeHeld;
      const t = thread(contact);
      const recorded = storage.outbound.recordOutcome(sent(ids[0]!), t);
      if (backend === "PostgreSQL" && !(await waitsOnALock(db, recorded, "outcome AS"))) didNotWait++;
      commit();
      await close;
      const result = await recorded.catch((error: unknown) => String(error));
      const counts = await threadsOf(contact.id);
      const ok =
        typeof result === "object" &&
        result.opened &&
        result.conversationId === t.conversation.id &&
        JSON.stringify(counts) === JSON.stringify({ active: 1, threads: 2, messages: 1, started: 1 });
      if (!ok) violations.push({ run, result, counts });
    }
    expect({ violations, didNotWait }).toEqual({ violations: [], didNotWait: 0 });
  });
});
