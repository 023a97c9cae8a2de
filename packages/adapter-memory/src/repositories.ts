import { ConflictError, VitrinaError, type ConversationRecord, type StorageRepositories } from "@vitrina/core";
import { createMemoryOAuthRepositories } from "./oauth-repositories.js";
import { createCapabilityRepositories } from "./capability-repositories.js";
import type { MemoryState } from "./state.js";
import type { UndoLog } from "./table.js";
import { createCommerceRepositories } from "./commerce-repositories.js";
import { createContactRepositories, flaggedIfEmailKnown } from "./contact-repositories.js";
import { appendAndFanOut, createWebhookRepositories } from "./webhook-repositories.js";
import { createOutboundRepository } from "./outbound-repositories.js";
import { createRetentionRepository } from "./retention-repositories.js";
import { createPersonalDataRepository } from "./personal-data-repositories.js";
import { refuseUnstorableText } from "./storable-arguments.js";
import { createLeadOperationRepositories } from "./lead-operation-repositories.js";
import { createAdminRepositories } from "./admin-repositories.js";
import { createWhatsAppRepositories, withDelivery } from "./whatsapp-repositories.js";

const byCreated = <T extends { createdAt: string }>(a: T, b: T) => a.createdAt.localeCompare(b.createdAt);
const newestFirst = <T extends { createdAt: string; id: string }>(a: T, b: T) =>
  b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);
const limited = <T>(rows: T[], limit?: number) => (limit === undefined ? rows : rows.slice(0, limit));

/** The memory twin of `conversations_one_active_whatsapp_key`. */
function refuseSecondActiveWhatsapp(state: MemoryState, conversation: ConversationRecord): void {
  if (conversation.channel !== "whatsapp" || conversation.status === "closed") return;
  const holder = state.conversations.lookup("activeWhatsapp", conversation.contactId);
  if (holder !== null && holder.id !== conversation.id) {
    throw new ConflictError(
      `contact ${conversation.contactId} already has an active WhatsApp conversation (${holder.id})`,
    );
  }
}

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
      async upsertMember({ workspaceId, userId, role }) {
        const existing = state.members.get(`${workspaceId}/${userId}`);
        if (existing !== null) state.members.replace({ ...existing, role }, undo);
        else state.members.insert({ workspaceId, userId, role, sessionEpoch: crypto.randomUUID() }, undo);
      },
      async getMember(workspaceId, userId) {
        const member = state.members.get(`${workspaceId}/${userId}`);
        return member === null ? null : { ...member };
      },
      async endSessions(workspaceId, userId) {
        const member = state.members.get(`${workspaceId}/${userId}`);
        return member !== null && state.members.replace({ ...member, sessionEpoch: crypto.randomUUID() }, undo);
      },
      async listForUser(userId) {
        return state.members
          .filter((m) => m.userId === userId)
          .flatMap((m) => {
            const workspace = state.workspaces.get(m.workspaceId);
            return workspace === null ? [] : [{ ...workspace, role: m.role }];
          })
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
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
      async getWithWorkspace(id) {
        const connector = state.connectors.get(id);
        const workspace = connector === null ? null : state.workspaces.get(connector.workspaceId);
        return connector === null || workspace === null ? null : { connector, workspace };
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
    ...createContactRepositories(state, undo),
    ...createAdminRepositories(state, undo),
    ...createLeadOperationRepositories(state, undo),
    leads: {
      async insertIfNew(lead) {
        if (state.leads.holds("source", lead)) return false;
        state.leads.insert(lead, undo);
        return true;
      },
      async registerIfNew(lead, opportunity, outbound) {
        if (state.leads.holds("source", lead)) return false;
        state.leads.insert(lead, undo);
        state.opportunities.insert(opportunity, undo);
        state.outbound.insert(outbound, undo);
        return true;
      },
      async registerNewPerson(contact, lead, opportunity, outbound, secretVersion, consent, phoneHash) {
        if (state.connectors.peek(lead.connectorId)?.secretVersion !== secretVersion) return false;
        if (state.contacts.holds("phone", contact) || state.leads.holds("source", lead)) return false;
        const suppressed = (e: { workspaceId: string; phoneHash: string | null }) =>
          e.workspaceId === contact.workspaceId && e.phoneHash === phoneHash;
        if (phoneHash !== undefined && state.suppressions.count(suppressed) > 0) return false;
        state.contacts.insert(flaggedIfEmailKnown(state, contact), undo);
        state.leads.insert(lead, undo);
        state.opportunities.insert(opportunity, undo);
        state.outbound.insert(outbound, undo);
        if (consent !== undefined && !state.consentLedger.holds("dedupe", consent))
          state.consentLedger.insert(consent, undo);
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
      async attributeNewest(workspaceId, contactId, attribution) {
        const newest = state.opportunities
          .filter((o) => o.contactId === contactId && o.workspaceId === workspaceId)
          .sort((a, b) => byCreated(b, a) || b.id.localeCompare(a.id))[0];
        if (newest === undefined || newest.attribution !== undefined) return null;
        state.opportunities.replace({ ...newest, attribution }, undo);
        return newest.id;
      },
    },
    ...createOutboundRepository(state, undo),
    conversations: {
      async insert(conversation) {
        refuseSecondActiveWhatsapp(state, conversation);
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
        refuseSecondActiveWhatsapp(state, conversation);
        return state.conversations.replace(conversation, undo);
      },
      async findActive(workspaceId, contactId, channel) {
        const active = state.conversations
          .lookupAll("contact", contactId)
          .filter((c) => c.workspaceId === workspaceId && c.channel === channel && c.status !== "closed");
        return active.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id))[0] ?? null;
      },
      async touch(workspaceId, id, updatedAt) {
        const current = state.conversations.get(id);
        if (current?.workspaceId !== workspaceId || current.status === "closed") return false;
        return state.conversations.replace({ ...current, updatedAt }, undo);
      },
      async escalate(workspaceId, id, at) {
        const current = state.conversations.get(id);
        if (current?.workspaceId !== workspaceId || current.escalatedAt !== null) return null;
        const escalated: ConversationRecord = { ...current, status: "pending", escalatedAt: at, updatedAt: at };
        refuseSecondActiveWhatsapp(state, escalated);
        state.conversations.replace(escalated, undo);
        return escalated;
      },
    },
    messages: {
      async insert(message) {
        state.messages.insert(message, undo);
      },
      async listByConversation(conversationId, options = {}) {
        return limited(state.messages.lookupAll("conversation", conversationId).sort(newestFirst), options.limit).map(
          (m) => withDelivery(state, m),
        );
      },
      async findByProviderId(workspaceId, providerMessageId) {
        const found = state.messages.lookup("provider", `${workspaceId}/${providerMessageId}`);
        return found === null ? null : withDelivery(state, found);
      },
      async setProviderMessageId(workspaceId, id, providerMessageId) {
        const current = state.messages.get(id);
        if (current?.workspaceId !== workspaceId) return false;
        if (state.messages.lookup("provider", `${workspaceId}/${providerMessageId}`) !== null)
          throw new ConflictError("a record with the same key already exists");
        return state.messages.replace({ ...current, providerMessageId }, undo);
      },
      async delete(workspaceId, id) {
        return state.messages.get(id)?.workspaceId === workspaceId && state.messages.delete(id, undo);
      },
    },
    events: {
      async append(event) {
        state.events.insert(event, undo);
      },
      async appendAndFanOut(event, { retryUntil }) {
        return appendAndFanOut(state, undo, event, retryUntil);
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
    ...createRetentionRepository(state, undo),
    ...createWhatsAppRepositories(state, undo),
    ...createPersonalDataRepository(state, undo),
  });
}
