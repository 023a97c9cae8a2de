import type { StorageRepositories } from "@vitrina/core";
import { erasedContact, erasedTraceEntry, noErasureCounts } from "@vitrina/core/storage";
import type { PageCursor, PersonalDataKind, PersonalDataRows } from "@vitrina/core/storage";
import type { MessageRecord } from "@vitrina/core";
import type { MemoryState } from "./state.js";
import type { UndoLog } from "./table.js";
import { withDelivery } from "./whatsapp-repositories.js";

type Row = PersonalDataRows[PersonalDataKind];

/** Each kind's time (the one its PostgreSQL page is ordered by) and its rows of one contact. */
function kindOf(
  state: MemoryState,
  workspaceId: string,
  contactId: string,
  kind: Exclude<PersonalDataKind, "messages">,
) {
  const mine = <T extends { workspaceId: string; contactId: string }>(r: T) =>
    r.workspaceId === workspaceId && r.contactId === contactId;
  switch (kind) {
    case "leads":
      return { at: (r: any) => r.receivedAt as string, rows: () => state.leads.filter(mine) };
    case "opportunities":
      return { at: (r: any) => r.createdAt as string, rows: () => state.opportunities.filter(mine) };
    case "outbound":
      return {
        at: (r: any) => r.createdAt as string,
        rows: () => state.outbound.filter(mine).map((m) => withDelivery(state, m)),
      };
    case "conversations":
      return { at: (r: any) => r.createdAt as string, rows: () => state.conversations.filter(mine) };
    case "consent":
      return { at: (r: any) => r.recordedAt as string, rows: () => state.consentLedger.filter(mine) };
    case "events":
      return {
        at: (r: any) => r.created as string,
        rows: () => state.events.filter((e) => e.workspaceId === workspaceId && e.data.contact_id === contactId),
      };
  }
}

const after = (at: string, id: string, cursor: PageCursor | null) =>
  cursor === null || at > cursor.at || (at === cursor.at && id > cursor.id);
const byCreated = (a: MessageRecord, b: MessageRecord) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/**
 * The contact's messages after the cursor: the first `limit` of each conversation (its index, a
 * partial selection), then the first `limit` of those, as PostgreSQL pages them: a long history
 * costs each page one pass over it, not a sort of all of it.
 */
function messagesPage(
  state: MemoryState,
  workspaceId: string,
  contactId: string,
  cursor: PageCursor | null,
  limit: number,
) {
  const conversations = state.conversations.filter((c) => c.workspaceId === workspaceId && c.contactId === contactId);
  const firsts = conversations.flatMap((c) =>
    state.messages.select(
      (m) => m.workspaceId === workspaceId && after(m.createdAt, m.id, cursor),
      byCreated,
      limit,
      () => true,
      { within: { index: "conversation", value: c.id } },
    ),
  );
  return firsts
    .sort(byCreated)
    .slice(0, limit)
    .map((m) => withDelivery(state, m));
}

/** A person's data in memory: the same selections and the same redactions as the PostgreSQL adapter's. */
export function createPersonalDataRepository(
  state: MemoryState,
  undo: UndoLog,
): Pick<StorageRepositories, "personalData"> {
  return {
    personalData: {
      async exportPage(workspaceId, contactId, kind, cursor, limit) {
        if (kind === "messages") return messagesPage(state, workspaceId, contactId, cursor, limit) as never;
        const { at, rows } = kindOf(state, workspaceId, contactId, kind);
        return (rows() as Row[])
          .filter((r) => after(at(r), r.id, cursor))
          .sort((a, b) => at(a).localeCompare(at(b)) || a.id.localeCompare(b.id))
          .slice(0, limit) as never;
      },
      async deliveriesOf(workspaceId, eventIds) {
        const ids = new Set(eventIds);
        return state.webhookDeliveries
          .filter((d) => d.workspaceId === workspaceId && ids.has(d.eventId))
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
          .map((d) => ({
            id: d.id,
            eventId: d.eventId,
            subscriptionId: d.subscriptionId,
            status: d.status,
            attemptCount: d.attemptCount,
            createdAt: d.createdAt,
            deliveredAt: d.deliveredAt,
          }));
      },
      async lockForErasure(workspaceId, contactId) {
        // Memory transactions run one at a time: nothing can interleave, so no lock is needed.
        const contact = state.contacts.get(contactId);
        return contact?.workspaceId === workspaceId ? contact : null;
      },
      async erase(workspaceId, contactId, { suppression, record, at }) {
        const counts = noErasureCounts();
        const mine = <T extends { workspaceId: string; contactId: string }>(r: T) =>
          r.workspaceId === workspaceId && r.contactId === contactId;
        const conversations = new Set(state.conversations.filter(mine).map((c) => c.id));
        const messages = state.messages.filter(
          (m) => m.workspaceId === workspaceId && conversations.has(m.conversationId),
        );
        const outbound = state.outbound.filter(mine);
        const providerIds = [...messages.map((m) => m.providerMessageId), ...outbound.map((m) => m.providerMessageId)];
        for (const id of new Set(providerIds))
          if (id != null && state.deliveryStates.delete(`${workspaceId}/${id}`, undo)) counts.deliveryReports++;
        for (const m of messages) {
          const { details: _details, replyTo: _replyTo, providerMessageId: _provider, ...kept } = m;
          state.messages.replace({ ...kept, content: "", contentRedactedAt: m.contentRedactedAt ?? at }, undo);
          counts.messages++;
        }
        for (const m of outbound) {
          state.outbound.replace({ ...m, providerMessageId: null }, undo);
          counts.outbound++;
        }
        for (const lead of state.leads.filter(mine)) {
          state.leads.replace(
            {
              ...lead,
              payload: { redacted_at: at },
              payloadRedactedAt: lead.payloadRedactedAt ?? at,
              sourceLeadId: `erased:${lead.id}`,
              qualificationRejected: [],
            },
            undo,
          );
          counts.leads++;
        }
        for (const o of state.opportunities.filter(mine)) {
          const { attribution: _attribution, ...kept } = o;
          state.opportunities.replace({ ...kept, landingPage: null, qualification: [] }, undo);
          counts.opportunities++;
        }
        for (const entry of state.consentLedger.filter(mine)) {
          state.consentLedger.replace({ ...entry, evidence: {}, dedupeKey: null }, undo);
          counts.consent++;
        }
        // Agent traces name a contact inside a capability's input: found by its id anywhere in the JSON.
        const names = (value: unknown) => JSON.stringify(value).includes(JSON.stringify(contactId));
        for (const run of state.agentRuns.filter((r) => r.workspaceId === workspaceId && names(r.trace))) {
          state.agentRuns.replace({ ...run, trace: run.trace.map(erasedTraceEntry) }, undo);
          counts.agentRuns++;
        }
        for (const task of state.tasks.filter((r) => r.workspaceId === workspaceId && names(r.input))) {
          state.tasks.replace({ ...task, input: {} }, undo);
          counts.tasks++;
        }
        const events = state.events.filter(
          (e) =>
            e.workspaceId === workspaceId &&
            (e.data.contact_id === contactId || (e.type === "agent.run.completed" && names(e.data))),
        );
        const eventIds = new Set(events.map((e) => e.id));
        const deliveries = state.webhookDeliveries.filter((d) => eventIds.has(d.eventId));
        for (const d of deliveries) {
          const cancel = d.status === "pending";
          state.webhookDeliveries.replace(
            cancel
              ? {
                  ...d,
                  status: "failed",
                  lastError: "contact erased",
                  nextAttemptAt: at,
                  leaseUntil: null,
                  leasedBy: null,
                }
              : { ...d, lastError: null },
            undo,
          );
          if (cancel) counts.deliveriesCancelled++;
        }
        const deliveryIds = new Set(deliveries.map((d) => d.id));
        for (const attempt of state.webhookAttempts.filter((a) => deliveryIds.has(a.deliveryId))) {
          state.webhookAttempts.replace({ ...attempt, responseBodyPrefix: null, error: null }, undo);
          counts.attempts++;
        }
        for (const event of events) {
          state.events.replace({ ...event, data: { erased_at: at } }, undo);
          counts.events++;
        }
        for (const other of state.contacts.filter(
          (c) => c.workspaceId === workspaceId && c.possibleDuplicateOf === contactId,
        )) {
          const { possibleDuplicateOf: _dropped, ...kept } = other;
          state.contacts.replace(kept, undo);
        }
        const contact = state.contacts.get(contactId);
        if (contact !== null && contact.workspaceId === workspaceId) {
          state.contacts.replace(erasedContact(contact, at), undo);
          counts.contacts = 1;
        }
        if (suppression !== null)
          state.suppressions.insert({ ...suppression, key: String(state.suppressions.count(() => true)) }, undo);
        state.erasures.insert({ ...record, counts }, undo);
        return counts;
      },
      async findSuppression(workspaceId, { phoneHash = null, userIdHash = null }) {
        const [first] = state.suppressions
          .filter(
            (e) =>
              e.workspaceId === workspaceId &&
              ((phoneHash !== null && e.phoneHash === phoneHash) ||
                (userIdHash !== null && e.userIdHash === userIdHash)),
          )
          .sort((a, b) => a.optedOutAt.localeCompare(b.optedOutAt));
        if (first === undefined) return null;
        const { key: _key, ...entry } = first;
        return entry;
      },
      async listErasures(workspaceId, { limit }) {
        return state.erasures
          .filter((e) => e.workspaceId === workspaceId)
          .sort((a, b) => b.erasedAt.localeCompare(a.erasedAt) || b.id.localeCompare(a.id))
          .slice(0, limit);
      },
    },
  };
}
