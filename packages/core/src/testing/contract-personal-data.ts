import { describe, expect } from "vitest";
import { it } from "./contract-test.js";
import type { ContactRecord, EventRecord, MessageRecord } from "../ports/records.js";
import type { PageCursor, PersonalDataKind, PersonalDataRows, Storage } from "../ports/storage.js";
import type { ContractSection, Fixtures, Seed } from "./contract-section.js";
import { webhookFixtures } from "./webhook-fixtures.js";
import { erasedContact, erasedTraceEntry } from "../privacy/erased-rows.js";

const w = webhookFixtures();

/**
 * One person with a row of every kind an export reads (two leads, messages in and out with provider
 * ids and a delivery report, consent, an event with a sent and a pending delivery and an attempt
 * that echoed the request), and a second contact of the same workspace flagged as their duplicate.
 */
async function seedPerson(storage: Storage, f: Fixtures, seedWorkspace: Seed, over: Partial<ContactRecord> = {}) {
  const { workspace, connector } = await seedWorkspace();
  const workspaceId = workspace.id;
  const contact = f.contact(workspaceId, {
    email: `person-${f.id()}@example.com`,
    tags: ["vip"],
    whatsappUserId: `CL.${f.id()}`,
    ...over,
  });
  await storage.contacts.insertOrGetByPhone(contact);
  const duplicate = f.contact(workspaceId, { email: contact.email, possibleDuplicateOf: contact.id });
  await storage.contacts.insertOrGetByPhone(duplicate);
  const leads = [0, 1].map((n) =>
    f.lead(workspaceId, connector.id, {
      contactId: contact.id,
      receivedAt: f.at(n * 1000),
      payload: { contact: { name: contact.name, phone_e164: contact.phoneE164 }, metadata: { note: "secreto" } },
    }),
  );
  const opportunities = leads.map((lead) =>
    f.opportunity(workspaceId, contact.id, lead.id, {
      leadEventId: lead.id,
      landingPage: "https://example.com/?email=someone",
      attribution: { ctwa_clid: "abc" },
    }),
  );
  for (const [i, lead] of leads.entries()) {
    await storage.leads.insertIfNew({ ...lead, opportunityId: opportunities[i]!.id });
    await storage.opportunities.insert(opportunities[i]!);
  }
  const outbound = f.outbound(workspaceId, leads[0]!.id, contact.id, {
    status: "sent",
    providerMessageId: `wamid.${f.id()}`,
  });
  await storage.outbound.insert(outbound);
  const conversation = f.conversation(workspaceId, contact.id);
  await storage.conversations.insert(conversation);
  const inbound = `wamid.${f.id()}`;
  const messages: MessageRecord[] = [0, 1, 2].map((n) => ({
    id: f.id(),
    workspaceId,
    conversationId: conversation.id,
    sender: n === 1 ? "contact" : "agent",
    content: `mensaje ${n} sobre departamento`,
    createdAt: f.at(2000 + n),
    ...(n === 1 && { providerMessageId: inbound, kind: "image", details: { caption: "mi casa" }, replyTo: "wamid.x" }),
  }));
  for (const message of messages) await storage.messages.insert(message);
  // A second, closed conversation whose messages fall before and after the first's: pages interleave them.
  const earlier = f.conversation(workspaceId, contact.id, { channel: "web", status: "closed" });
  await storage.conversations.insert(earlier);
  const web = [1999, 2003].map((n) => ({
    id: f.id(),
    workspaceId,
    conversationId: earlier.id,
    sender: "contact",
    content: `web ${n}`,
    createdAt: f.at(n),
  }));
  for (const message of web) await storage.messages.insert(message);
  await storage.deliveryReports.recordStatuses(workspaceId, [
    {
      providerMessageId: outbound.providerMessageId!,
      sentAt: f.at(10),
      deliveredAt: f.at(20),
      readAt: null,
      failedAt: null,
      failureCode: null,
      failureTitle: null,
    },
  ]);
  await storage.consentLedger.append({
    id: f.id(),
    workspaceId,
    contactId: contact.id,
    kind: "opted_out",
    source: "keyword",
    sourceRef: null,
    evidence: { words: "BAJA por favor" },
    occurredAt: f.at(3000),
    recordedAt: f.at(3000),
    dedupeKey: `keyword:${inbound}`,
  });
  const event: EventRecord = w.event(workspaceId, {
    type: "conversation.started",
    created: f.at(4000),
    data: { conversation_id: conversation.id, contact_id: contact.id, channel: "whatsapp", started_by: "contact" },
  });
  await storage.events.append(event);
  const subscription = w.subscription(workspaceId);
  await storage.webhookSubscriptions.insert(subscription);
  const sent = w.delivery(workspaceId, subscription.id, {
    eventId: event.id,
    status: "succeeded",
    deliveredAt: f.at(5000),
  });
  const other = w.subscription(workspaceId);
  await storage.webhookSubscriptions.insert(other);
  const pending = w.delivery(workspaceId, other.id, { eventId: event.id, status: "pending" });
  for (const delivery of [sent, pending]) await storage.webhookDeliveries.insert(delivery);
  await storage.webhookAttempts.insert({
    id: f.id(),
    deliveryId: sent.id,
    number: 1,
    attemptedAt: f.at(5000),
    statusCode: 200,
    durationMs: 4,
    error: null,
    responseBodyPrefix: `{"echo":"${contact.name}"}`,
  });
  // An agent renamed them: the trace, the task a policy opened and the run's event name them by id.
  const entry = (contactId: string) => ({
    capability: "contacts.update",
    input: { contact_id: contactId, name: contact.name },
    outcome: "ok" as const,
    output: { ok: true },
    startedAt: f.at(6000),
    durationMs: 3,
  });
  const run = {
    id: f.id(),
    workspaceId,
    agentId: "sales-bot",
    actorId: null,
    status: "completed" as const,
    startedAt: f.at(6000),
    completedAt: f.at(6001),
  };
  const runs = {
    naming: { ...run, trace: [entry(contact.id)] },
    other: { ...run, id: f.id(), trace: [entry(duplicate.id)] },
  };
  for (const r of Object.values(runs)) await storage.agentRuns.insert(r);
  const task = {
    id: f.id(),
    workspaceId,
    kind: "policy_review" as const,
    status: "open" as const,
    title: "Review contacts.update",
    reason: "writes need a person",
    capability: "contacts.update",
    input: { contact_id: contact.id, phone: contact.phoneE164 },
    actorId: null,
    agentId: "sales-bot",
    createdAt: f.at(6002),
  };
  await storage.tasks.insert(task);
  const runEvent: EventRecord = w.event(workspaceId, {
    type: "agent.run.completed",
    created: f.at(6003),
    data: { run_id: runs.naming.id, agent_id: "sales-bot", trace: runs.naming.trace },
  });
  await storage.events.append(runEvent);
  const stored = (await storage.contacts.get(workspaceId, contact.id))!;
  return {
    workspaceId,
    connector,
    contact: stored,
    duplicate,
    leads,
    conversation,
    earlier,
    messages,
    event,
    deliveries: { sent, pending },
    runs,
    task,
    runEvent,
  };
}

/** Every row of `kind`, read page by page (`size` rows a page) through `exportPage`. */
async function allPages<K extends PersonalDataKind>(
  storage: Storage,
  workspaceId: string,
  contactId: string,
  kind: K,
  size: number,
  at: (row: PersonalDataRows[K]) => string,
): Promise<PersonalDataRows[K][]> {
  const rows: PersonalDataRows[K][] = [];
  let cursor: PageCursor | null = null;
  for (;;) {
    const page: PersonalDataRows[K][] = await storage.personalData.exportPage(
      workspaceId,
      contactId,
      kind,
      cursor,
      size,
    );
    rows.push(...page);
    if (page.length < size) return rows;
    const last = page[page.length - 1]!;
    cursor = { at: at(last), id: last.id };
  }
}

const byCreated = (r: { createdAt: string }) => r.createdAt;

function personalDataContract(storage: () => Storage, f: Fixtures, seedWorkspace: Seed): void {
  describe("personal data", () => {
    it("exports every row of the contact, field for field as its own repository reads it, page by page", async () => {
      const s = storage();
      const p = await seedPerson(s, f, seedWorkspace);
      const { workspaceId } = p;
      const id = p.contact.id;
      const leads = await allPages(s, workspaceId, id, "leads", 1, (l) => l.receivedAt);
      expect(leads).toEqual(await Promise.all(p.leads.map(async (l) => (await s.leads.get(l.id))!)));
      expect(await allPages(s, workspaceId, id, "opportunities", 1, byCreated)).toEqual(
        (await s.opportunities.listByContact(id)).sort((a, b) => a.id.localeCompare(b.id)),
      );
      const outbound = await allPages(s, workspaceId, id, "outbound", 1, byCreated);
      expect(outbound).toEqual([(await s.outbound.findByLeadEvent(p.leads[0]!.id))!]);
      expect(outbound[0]!.delivery?.status).toBe("delivered");
      const conversations = [p.conversation, p.earlier].sort(
        (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
      );
      expect(await allPages(s, workspaceId, id, "conversations", 1, byCreated)).toEqual(
        await Promise.all(conversations.map(async (c) => (await s.conversations.get(workspaceId, c.id))!)),
      );
      const messages = await allPages(s, workspaceId, id, "messages", 2, byCreated);
      const stored = [
        ...(await s.messages.listByConversation(p.conversation.id)),
        ...(await s.messages.listByConversation(p.earlier.id)),
      ];
      expect(messages).toEqual(
        stored.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)),
      );
      expect(messages.map((m) => m.content)).toEqual(["web 1999", ...p.messages.map((m) => m.content), "web 2003"]);
      expect(messages[2]).toMatchObject({ kind: "image", details: { caption: "mi casa" }, replyTo: "wamid.x" });
      expect(await allPages(s, workspaceId, id, "consent", 1, (e) => e.recordedAt)).toEqual(
        await s.consentLedger.listByContact(workspaceId, id, { limit: 10 }),
      );
      expect(await allPages(s, workspaceId, id, "events", 1, (e) => e.created)).toEqual([p.event]);
      const deliveries = await s.personalData.deliveriesOf(workspaceId, [p.event.id]);
      expect(deliveries.map((d) => d.id).sort()).toEqual([p.deliveries.sent.id, p.deliveries.pending.id].sort());
      expect(deliveries.find((d) => d.id === p.deliveries.sent.id)).toEqual({
        id: p.deliveries.sent.id,
        eventId: p.event.id,
        subscriptionId: p.deliveries.sent.subscriptionId,
        status: "succeeded",
        attemptCount: p.deliveries.sent.attemptCount,
        createdAt: p.deliveries.sent.createdAt,
        deliveredAt: f.at(5000),
      });
      // Another workspace never sees them, and the duplicate contact has none of them.
      expect(await s.personalData.exportPage(f.id(), id, "messages", null, 10)).toEqual([]);
      expect(await s.personalData.deliveriesOf(f.id(), [p.event.id])).toEqual([]);
      for (const kind of ["leads", "messages", "events", "consent"] as const)
        expect(await s.personalData.exportPage(workspaceId, p.duplicate.id, kind, null, 10)).toEqual([]);
    });

    it("erases every copy in one transaction, keeps the aggregate rows unlinkable, the suppression entry and the record", async () => {
      const s = storage();
      const p = await seedPerson(s, f, seedWorkspace, { whatsappOptedOutAt: f.at(3000) });
      const { workspaceId } = p;
      const id = p.contact.id;
      const at = f.at(9000);
      const suppression = {
        workspaceId,
        phoneHash: `ph-${f.id()}`,
        userIdHash: `uh-${f.id()}`,
        optedOutAt: f.at(3000),
        createdAt: at,
      };
      const record = { id: f.id(), workspaceId, contactId: id, requestedBy: "console:owner-1", erasedAt: at };
      const counts = await s.transaction(async (tx) => {
        expect(await tx.personalData.lockForErasure(workspaceId, id)).toEqual(p.contact);
        return tx.personalData.erase(workspaceId, id, { suppression, record, at });
      });
      expect(counts).toEqual({
        contacts: 1,
        leads: 2,
        opportunities: 2,
        outbound: 1,
        messages: 5,
        consent: 1,
        events: 2,
        deliveriesCancelled: 1,
        attempts: 1,
        deliveryReports: 1,
        agentRuns: 1,
        tasks: 1,
      });
      expect(await s.contacts.get(workspaceId, id)).toEqual(erasedContact(p.contact, at));
      const { possibleDuplicateOf, ...unflagged } = p.duplicate;
      expect(possibleDuplicateOf).toBe(id);
      expect(await s.contacts.get(workspaceId, p.duplicate.id)).toEqual(unflagged);
      for (const lead of p.leads)
        expect(await s.leads.get(lead.id)).toEqual({
          ...lead,
          sourceLeadId: `erased:${lead.id}`,
          payload: { redacted_at: at },
          payloadRedactedAt: at,
          qualificationRejected: [],
          opportunityId: (await s.leads.get(lead.id))!.opportunityId,
        });
      for (const o of await s.opportunities.listByContact(id)) {
        expect(o).toMatchObject({ landingPage: null, qualification: [], source: "landing" });
        expect(o.attribution).toBeUndefined();
      }
      const messages = await s.messages.listByConversation(p.conversation.id);
      expect(messages.map((m) => [m.content, m.contentRedactedAt, m.details, m.providerMessageId, m.replyTo])).toEqual(
        messages.map(() => ["", at, undefined, undefined, undefined]),
      );
      expect(messages.map((m) => m.sender).sort()).toEqual(["agent", "agent", "contact"]);
      const outbound = (await s.outbound.findByLeadEvent(p.leads[0]!.id))!;
      expect(outbound).toMatchObject({ status: "sent", providerMessageId: null });
      expect(outbound.delivery).toBeUndefined();
      const [entry] = await s.consentLedger.listByContact(workspaceId, id, { limit: 10 });
      expect(entry).toMatchObject({ kind: "opted_out", evidence: {}, dedupeKey: null });
      expect(await s.events.get(p.event.id)).toEqual({ ...p.event, data: { erased_at: at } });
      expect(await s.webhookDeliveries.get(workspaceId, p.deliveries.pending.id)).toMatchObject({
        status: "failed",
        lastError: "contact erased",
        nextAttemptAt: at,
        leaseUntil: null,
      });
      expect(await s.webhookDeliveries.get(workspaceId, p.deliveries.sent.id)).toMatchObject({ status: "succeeded" });
      const [attempt] = await s.webhookAttempts.listByDeliveries([p.deliveries.sent.id]);
      expect(attempt).toMatchObject({ statusCode: 200, error: null });
      expect(attempt!.responseBodyPrefix ?? null).toBeNull();
      expect(await s.agentRuns.get(workspaceId, p.runs.naming.id)).toEqual({
        ...p.runs.naming,
        trace: p.runs.naming.trace.map(erasedTraceEntry),
      });
      expect((await s.agentRuns.get(workspaceId, p.runs.naming.id))!.trace[0]).toEqual({
        capability: "contacts.update",
        input: null,
        outcome: "ok",
        startedAt: f.at(6000),
        durationMs: 3,
      });
      expect(await s.agentRuns.get(workspaceId, p.runs.other.id)).toEqual(p.runs.other);
      expect(await s.tasks.get(workspaceId, p.task.id)).toEqual({ ...p.task, input: {} });
      expect(await s.events.get(p.runEvent.id)).toEqual({ ...p.runEvent, data: { erased_at: at } });
      expect(await s.personalData.findSuppression(workspaceId, { phoneHash: suppression.phoneHash })).toEqual(
        suppression,
      );
      expect(await s.personalData.findSuppression(workspaceId, { userIdHash: suppression.userIdHash })).toEqual(
        suppression,
      );
      expect(await s.personalData.findSuppression(f.id(), { phoneHash: suppression.phoneHash })).toBeNull();
      expect(await s.personalData.findSuppression(workspaceId, { phoneHash: "other" })).toBeNull();
      expect(await s.personalData.listErasures(workspaceId, { limit: 5 })).toEqual([{ ...record, counts }]);
      // The phone is free again: a new contact may take it.
      const again = f.contact(workspaceId, { phoneE164: p.contact.phoneE164 });
      expect((await s.contacts.insertOrGetByPhone(again)).created).toBe(true);
    });

    it("rolls the erasure back whole when the transaction fails", async () => {
      const s = storage();
      const p = await seedPerson(s, f, seedWorkspace);
      const at = f.at(9000);
      const record = {
        id: f.id(),
        workspaceId: p.workspaceId,
        contactId: p.contact.id,
        requestedBy: "cli",
        erasedAt: at,
      };
      await expect(
        s.transaction(async (tx) => {
          await tx.personalData.lockForErasure(p.workspaceId, p.contact.id);
          await tx.personalData.erase(p.workspaceId, p.contact.id, { suppression: null, record, at });
          throw new Error("stop");
        }),
      ).rejects.toThrow("stop");
      expect(await s.contacts.get(p.workspaceId, p.contact.id)).toEqual(p.contact);
      expect((await s.messages.listByConversation(p.conversation.id)).map((m) => m.content).sort()).toEqual(
        p.messages.map((m) => m.content).sort(),
      );
      expect(await s.personalData.listErasures(p.workspaceId, { limit: 5 })).toEqual([]);
    });

    it("registerNewPerson writes nothing for a phone whose keyed hash is suppressed", async () => {
      const s = storage();
      const { workspace, connector } = await seedWorkspace();
      const phoneHash = `ph-${f.id()}`;
      const person = () => {
        const contact = f.contact(workspace.id);
        const lead = f.lead(workspace.id, connector.id, { contactId: contact.id });
        const opportunity = f.opportunity(workspace.id, contact.id, lead.id);
        return {
          contact,
          lead: { ...lead, opportunityId: opportunity.id },
          opportunity,
          outbound: f.outbound(workspace.id, lead.id, contact.id),
        };
      };
      await s.transaction(async (tx) => {
        const holder = f.contact(workspace.id, { whatsappOptedOutAt: f.at() });
        await tx.contacts.insertOrGetByPhone(holder);
        await tx.personalData.lockForErasure(workspace.id, holder.id);
        const suppression = {
          workspaceId: workspace.id,
          phoneHash,
          userIdHash: null,
          optedOutAt: f.at(),
          createdAt: f.at(),
        };
        const record = {
          id: f.id(),
          workspaceId: workspace.id,
          contactId: holder.id,
          requestedBy: "cli",
          erasedAt: f.at(),
        };
        await tx.personalData.erase(workspace.id, holder.id, { suppression, record, at: f.at() });
      });
      const blocked = person();
      const args = [blocked.contact, blocked.lead, blocked.opportunity, blocked.outbound, 1, undefined] as const;
      expect(await s.leads.registerNewPerson(...args, phoneHash)).toBe(false);
      expect(await s.contacts.get(workspace.id, blocked.contact.id)).toBeNull();
      expect(await s.leads.get(blocked.lead.id)).toBeNull();
      expect(await s.leads.registerNewPerson(...args, `other-${f.id()}`)).toBe(true);
      const unchecked = person();
      expect(
        await s.leads.registerNewPerson(
          unchecked.contact,
          unchecked.lead,
          unchecked.opportunity,
          unchecked.outbound,
          1,
        ),
      ).toBe(true);
    });
  });
}

/** Message-text retention selects across workspaces: it runs on a storage of its own. */
function messageRetentionContract(create: () => Promise<Storage>, f: Fixtures): void {
  it("retention blanks message text (and details) older than the cutoff, once, in batches", async () => {
    const s = await create();
    try {
      const workspace = f.workspace();
      await s.workspaces.insert(workspace);
      const contact = f.contact(workspace.id);
      await s.contacts.insertOrGetByPhone(contact);
      const conversation = f.conversation(workspace.id, contact.id);
      await s.conversations.insert(conversation);
      const message = (n: number, over: Partial<MessageRecord> = {}): MessageRecord => ({
        id: f.id(),
        workspaceId: workspace.id,
        conversationId: conversation.id,
        sender: "contact",
        content: `texto ${n}`,
        createdAt: f.at(n * 1000),
        ...over,
      });
      const old = [message(1, { kind: "location", details: { latitude: -33.4 } }), message(2), message(3)];
      const fresh = message(50);
      for (const m of [...old, fresh]) await s.messages.insert(m);
      const before = f.at(10_000);
      const cutoffs = { deliveriesFinishedBefore: null, leadsReceivedBefore: null, messagesCreatedBefore: before };
      expect((await s.retention.countEligible(cutoffs)).messageTexts).toBe(3);
      expect(await s.retention.redactMessageTexts(before, 2, f.at(99))).toBe(2);
      expect(await s.retention.redactMessageTexts(before, 2, f.at(100))).toBe(1);
      expect(await s.retention.redactMessageTexts(before, 2, f.at(101))).toBe(0);
      const stored = await s.messages.listByConversation(conversation.id);
      const byId = new Map(stored.map((m) => [m.id, m]));
      const { details: _details, ...first } = old[0]!;
      expect(byId.get(old[0]!.id)).toEqual({ ...first, content: "", contentRedactedAt: f.at(99) });
      expect(byId.get(old[2]!.id)).toEqual({ ...old[2], content: "", contentRedactedAt: f.at(100) });
      expect(byId.get(fresh.id)).toEqual(fresh);
      expect((await s.retention.countEligible(cutoffs)).messageTexts).toBe(0);
    } finally {
      await s.close();
    }
  });
}

export const personalDataSection: ContractSection = {
  name: "personal data",
  run: (c) => {
    personalDataContract(c.storage, c.f, c.seedWorkspace);
    describe("personal data retention", () => messageRetentionContract(c.create, c.f));
  },
};
