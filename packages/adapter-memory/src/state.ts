import type {
  ConnectorRecord,
  ContactRecord,
  ConversationRecord,
  EventRecord,
  LeadEventRecord,
  MemberRecord,
  MessageRecord,
  OpportunityRecord,
  OutboundMessageRecord,
  WorkspaceRecord,
} from "@vitrina/core";
import { createCapabilityTables } from "./capability-state.js";
import { MemoryTable } from "./table.js";

/** All tables of one memory storage. Unique indexes mirror the PostgreSQL schema's constraints. */
export function createMemoryState() {
  return {
    workspaces: new MemoryTable<WorkspaceRecord>((w) => w.id),
    members: new MemoryTable<MemberRecord>((m) => `${m.workspaceId}/${m.userId}`),
    connectors: new MemoryTable<ConnectorRecord>((c) => c.id, {
      systemId: (c) => `${c.workspaceId}/${c.systemId}`,
    }),
    contacts: new MemoryTable<ContactRecord>(
      (c) => c.id,
      { phone: (c) => (c.phoneE164 === null ? null : `${c.workspaceId}/${c.phoneE164}`) },
      { email: (c) => (c.email === null ? null : `${c.workspaceId}/${c.email.toLowerCase()}`) },
    ),
    leads: new MemoryTable<LeadEventRecord>((l) => l.id, {
      source: (l) => `${l.connectorId}/${l.sourceLeadId}`,
    }),
    opportunities: new MemoryTable<OpportunityRecord>((o) => o.id),
    outbound: new MemoryTable<OutboundMessageRecord>((m) => m.id, { lead: (m) => m.leadEventId }),
    conversations: new MemoryTable<ConversationRecord>((c) => c.id),
    messages: new MemoryTable<MessageRecord>((m) => m.id),
    events: new MemoryTable<EventRecord>((e) => e.id),
    ...createCapabilityTables(),
  };
}
export type MemoryState = ReturnType<typeof createMemoryState>;
