import type { LeadEventRecord, StorageRepositories } from "@vitrina/core";
import type { LeadRefusalRecord } from "@vitrina/core/storage";
import type { MemoryState } from "./state.js";
import { MemoryTable, type UndoLog } from "./table.js";

type StoredRefusal = LeadRefusalRecord & { slot: number; seq: number };

/** The ring of refused leads per connector (a slot per row, as PostgreSQL keys it) and its counters. */
export function createLeadOperationTables() {
  return {
    leadRefusals: new MemoryTable<StoredRefusal>(
      (r) => `${r.connectorId}/${r.slot}`,
      {},
      { connector: (r) => r.connectorId },
    ),
    leadRefusalCounters: new MemoryTable<{ connectorId: string; nextSeq: number }>((c) => c.connectorId),
  };
}

const newestFirst = (a: LeadEventRecord, b: LeadEventRecord) =>
  b.receivedAt.localeCompare(a.receivedAt) || b.id.localeCompare(a.id);

/** Refused leads, the workspace-wide lead list and the retry claim; atomic because each runs without an await. */
export function createLeadOperationRepositories(
  state: MemoryState,
  undo: UndoLog,
): Pick<StorageRepositories, "leadRefusals" | "workspaceLeads" | "firstMessageRetries"> {
  const earlierLeadOf = (lead: LeadEventRecord) =>
    state.leads.count(
      (p) =>
        p.workspaceId === lead.workspaceId &&
        p.contactId === lead.contactId &&
        (p.receivedAt < lead.receivedAt || (p.receivedAt === lead.receivedAt && p.id < lead.id)),
    ) > 0;
  return {
    leadRefusals: {
      async record(refusal, keep) {
        if (state.connectors.peek(refusal.connectorId) === null) return false;
        const counter = state.leadRefusalCounters.get(refusal.connectorId);
        const seq = (counter?.nextSeq ?? 0) + 1;
        if (counter === null)
          state.leadRefusalCounters.insert({ connectorId: refusal.connectorId, nextSeq: seq }, undo);
        else state.leadRefusalCounters.replace({ ...counter, nextSeq: seq }, undo);
        const row: StoredRefusal = { ...refusal, fields: [...refusal.fields], slot: seq % keep, seq };
        if (state.leadRefusals.peek(`${row.connectorId}/${row.slot}`) === null) state.leadRefusals.insert(row, undo);
        else state.leadRefusals.replace(row, undo);
        return true;
      },
      async listByConnector(connectorId, limit) {
        return state.leadRefusals
          .lookupAll("connector", connectorId)
          .sort((a, b) => b.seq - a.seq)
          .slice(0, limit)
          .map(({ slot: _slot, seq: _seq, ...refusal }) => refusal);
      },
      async purgeBefore(before, limit) {
        const old = state.leadRefusals.filter((r) => r.at < before).slice(0, limit);
        for (const r of old) state.leadRefusals.delete(`${r.connectorId}/${r.slot}`, undo);
        return old.length;
      },
    },
    workspaceLeads: {
      async listPage(workspaceId, filter, page) {
        const all = state.leads.filter((l) => l.workspaceId === workspaceId).sort(newestFirst);
        const start = page.startingAfter === undefined ? 0 : all.findIndex((l) => l.id === page.startingAfter) + 1;
        if (start === 0 && page.startingAfter !== undefined) return [];
        const out = [];
        for (const lead of all.slice(start)) {
          if (out.length >= page.limit) break;
          const message = state.outbound.lookup("lead", lead.id);
          const duplicate = earlierLeadOf(lead);
          if (filter.connectorId !== undefined && lead.connectorId !== filter.connectorId) continue;
          if (filter.outboundStatus === "none" && message !== null) continue;
          if (
            filter.outboundStatus !== undefined &&
            filter.outboundStatus !== "none" &&
            message?.status !== filter.outboundStatus
          )
            continue;
          if (filter.duplicate !== undefined && duplicate !== filter.duplicate) continue;
          const conversation = state.conversations
            .lookupAll("contact", lead.contactId)
            .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id))[0];
          out.push({
            id: lead.id,
            connectorId: lead.connectorId,
            contactId: lead.contactId,
            opportunityId: lead.opportunityId,
            conversationId: conversation?.id ?? null,
            receivedAt: lead.receivedAt,
            sourceLeadId: lead.sourceLeadId,
            duplicate,
            outboundStatus: message?.status ?? null,
            outboundReason: message?.reason ?? null,
            rejectedQualification: lead.qualificationRejected,
          });
        }
        return out;
      },
      async firstMessageOf(workspaceId, leadEventId) {
        const message = state.outbound.lookup("lead", leadEventId);
        return message !== null && message.workspaceId === workspaceId ? message : null;
      },
    },
    firstMessageRetries: {
      async claimFailed(message, phoneE164, change) {
        const stored = state.contacts.get(message.contactId);
        const contact = stored?.workspaceId === message.workspaceId ? stored : null;
        if (contact === null) return { contact: null, claimed: null };
        const current = state.outbound.get(message.id);
        const welcomed = state.outbound
          .lookupAll("contact", contact.id)
          .some((m) => m.id !== message.id && (m.status === "queued" || m.status === "sent"));
        const passes =
          contact.whatsappOptedOutAt === null &&
          contact.phoneE164 === phoneE164 &&
          contact.whatsappConsent?.granted === true &&
          !welcomed;
        if (current === null || current.workspaceId !== message.workspaceId || current.status !== "failed" || !passes)
          return { contact, claimed: null };
        const claimed = { ...current, ...change, providerAnsweredAt: null, providerMessageId: null };
        state.outbound.replace(claimed, undo);
        return { contact, claimed };
      },
    },
  };
}
