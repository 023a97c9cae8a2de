import { VitrinaError, type StorageRepositories } from "@vitrina/core";
import { createMemoryOAuthRepositories } from "./oauth-repositories.js";
import { createCapabilityRepositories } from "./capability-repositories.js";
import type { MemoryState } from "./state.js";
import type { UndoLog } from "./table.js";
import { createCommerceRepositories } from "./commerce-repositories.js";
import { createWebhookRepositories } from "./webhook-repositories.js";
import { refuseUnstorableText } from "./storable-arguments.js";

const byCreated = <T extends { createdAt: string }>(a: T, b: T) => a.createdAt.localeCompare(b.createdAt);
const newestFirst = <T extends { createdAt: string; id: string }>(a: T, b: T) =>
  b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);
const limited = <T>(rows: T[], limit?: number) => (limit === undefined ? rows : rows.slice(0, limit));

/**
 * The repositories over one memory state. Every write appends to `undo`, so the caller decides
 * whether it commits (drop the log) or rolls back (replay it backwards).
 */
export function createMemoryRepositories(state: MemoryState, undo: UndoLog): StorageRepositories {
  return refuseUnstorableText({
    workspaces: {
      async insert(workspace) {
        state.workspaces.insert(workspace, undo);
      },
      async get(id) {
        return state.workspaces.get(id);
      },
      async upsertMember(member) {
        if (!state.members.replace(member, undo)) state.members.insert(member, undo);
      },
      async getMember(workspaceId, userId) {
        return state.members.get(`${workspaceId}/${userId}`);
      },
    },
    connectors: {
      async insert(connector) {
        if (state.connectors.conflictOf(connector) !== null) {
          throw new VitrinaError(
            "conflict",
            `a connector with system identifier "${connector.systemId}" already exists in this workspace`,
          );
        }
        state.connectors.insert(connector, undo);
      },
      async get(id) {
        return state.connectors.get(id);
      },
      async listByWorkspace(workspaceId) {
        return state.connectors.filter((c) => c.workspaceId === workspaceId).sort(byCreated);
      },
      async updateSecret(id, sealedSecret, rotatedAt) {
        const current = state.connectors.get(id);
        if (current === null) return null;
        const next = { ...current, sealedSecret, rotatedAt, secretVersion: current.secretVersion + 1 };
        state.connectors.replace(next, undo);
        return next;
      },
    },
    contacts: {
      async insertOrGetByPhone(contact) {
        const existing =
          contact.phoneE164 === null ? null : state.contacts.lookup("phone", `${contact.workspaceId}/${contact.phoneE164}`);
        if (existing !== null) return { contact: existing, created: false };
        state.contacts.insert(contact, undo);
        return { contact: structuredClone(contact), created: true };
      },
      async get(workspaceId, id) {
        const contact = state.contacts.get(id);
        return contact?.workspaceId === workspaceId ? contact : null;
      },
      async findByPhone(workspaceId, phoneE164) {
        return state.contacts.lookup("phone", `${workspaceId}/${phoneE164}`);
      },
      async findByEmail(workspaceId, email) {
        return state.contacts.lookupAll("email", `${workspaceId}/${email.toLowerCase()}`).sort(byCreated)[0] ?? null;
      },
      async update(contact) {
        // Not `conflictOf`: it reports the primary key first, which an update always "violates".
        const holder = contact.phoneE164 === null ? null : state.contacts.lookup("phone", `${contact.workspaceId}/${contact.phoneE164}`);
        if (holder !== null && holder.id !== contact.id) throw new VitrinaError("conflict", "another contact already has this phone");
        return state.contacts.replace(contact, undo);
      },
      async search(workspaceId, query, { limit }) {
        const text = query.trim().toLowerCase();
        const digits = text.replace(/[\s\-()]/g, "");
        const found = state.contacts.filter(
          (c) =>
            c.workspaceId === workspaceId &&
            (c.name?.toLowerCase().includes(text) ||
              c.email?.toLowerCase().includes(text) ||
              (/\d/.test(digits) && c.phoneE164?.includes(digits))) === true,
        );
        return found.sort((a, b) => byCreated(a, b) || a.id.localeCompare(b.id)).slice(0, limit);
      },
    },
    leads: {
      async insertIfNew(lead) {
        if (state.leads.holds("source", lead)) return false;
        state.leads.insert(lead, undo);
        return true;
      },
      async findBySourceId(connectorId, sourceLeadId) {
        return state.leads.lookup("source", `${connectorId}/${sourceLeadId}`);
      },
      async get(id) {
        return state.leads.get(id);
      },
      async countByWorkspace(workspaceId) {
        return state.leads.count((l) => l.workspaceId === workspaceId);
      },
    },
    opportunities: {
      async insert(opportunity) {
        state.opportunities.insert(opportunity, undo);
      },
      async get(id) {
        return state.opportunities.get(id);
      },
      async listByContact(contactId) {
        return state.opportunities.filter((o) => o.contactId === contactId).sort(byCreated);
      },
    },
    outbound: {
      async insert(message) {
        state.outbound.insert(message, undo);
      },
      async findByLeadEvent(leadEventId) {
        return state.outbound.lookup("lead", leadEventId);
      },
      async update(message) {
        return state.outbound.replace(message, undo);
      },
      async listByWorkspace(workspaceId) {
        return state.outbound.filter((m) => m.workspaceId === workspaceId).sort(byCreated);
      },
    },
    conversations: {
      async insert(conversation) {
        state.conversations.insert(conversation, undo);
      },
      async get(workspaceId, id) {
        const conversation = state.conversations.get(id);
        return conversation?.workspaceId === workspaceId ? conversation : null;
      },
      async listByWorkspace(workspaceId, options = {}) {
        const rows = state.conversations
          .filter((c) => c.workspaceId === workspaceId && (options.status === undefined || c.status === options.status))
          .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id));
        return limited(rows, options.limit);
      },
      async update(conversation) {
        return state.conversations.replace(conversation, undo);
      },
    },
    messages: {
      async insert(message) {
        state.messages.insert(message, undo);
      },
      async listByConversation(conversationId, options = {}) {
        return limited(state.messages.filter((m) => m.conversationId === conversationId).sort(newestFirst), options.limit);
      },
    },
    events: {
      async append(event) {
        state.events.insert(event, undo);
      },
      async get(id) {
        return state.events.get(id);
      },
      async listByWorkspace(workspaceId, options = {}) {
        return state.events
          .filter((e) => e.workspaceId === workspaceId && (options.type === undefined || e.type === options.type))
          .sort((a, b) => a.created.localeCompare(b.created));
      },
    },
    ...createMemoryOAuthRepositories(state, undo),
    ...createCapabilityRepositories(state, undo),
    ...createCommerceRepositories(state, undo),
    ...createWebhookRepositories(state, undo),
  });
}