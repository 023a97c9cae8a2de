import type { LeadEventRecord, MemberWithSessions, StorageRepositories } from "@vitrina/core";
import type { MemberDetails } from "@vitrina/core/storage";
import type { MemoryState } from "./state.js";
import type { UndoLog } from "./table.js";

const oldestFirst = <T extends { createdAt: string; id: string }>(a: T, b: T) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/**
 * Members, the connector listing and API key usage over one memory state. The workspace lock is
 * a no-op: memory transactions already run one at a time under the storage mutex.
 */
export function createAdminRepositories(
  state: MemoryState,
  undo: UndoLog,
): Pick<StorageRepositories, "members" | "connectorPages" | "apiKeyUsage" | "connectorLeads"> {
  const details = ({ sessionEpoch: _epoch, ...m }: MemberWithSessions): MemberDetails => {
    const invite = state.memberInvites.get(`${m.workspaceId}/${m.userId}`);
    return {
      ...m,
      email: invite?.email ?? null,
      // Members added through `workspaces.upsertMember` have no invite row: they date from the workspace.
      addedAt: invite?.addedAt ?? state.workspaces.get(m.workspaceId)?.createdAt ?? "",
    };
  };
  return {
    members: {
      async list(workspaceId) {
        return state.members
          .filter((m) => m.workspaceId === workspaceId)
          .map(details)
          .sort((a, b) => a.addedAt.localeCompare(b.addedAt) || a.userId.localeCompare(b.userId));
      },
      async get(workspaceId, userId) {
        const member = state.members.get(`${workspaceId}/${userId}`);
        return member === null ? null : details(member);
      },
      async insert(m) {
        if (state.members.get(`${m.workspaceId}/${m.userId}`) !== null) return false;
        state.members.insert(
          { workspaceId: m.workspaceId, userId: m.userId, role: m.role, sessionEpoch: crypto.randomUUID() },
          undo,
        );
        state.memberInvites.delete(`${m.workspaceId}/${m.userId}`, undo);
        state.memberInvites.insert(
          { workspaceId: m.workspaceId, userId: m.userId, email: m.email, addedAt: m.addedAt },
          undo,
        );
        return true;
      },
      async lockWorkspace(workspaceId) {
        return state.workspaces.get(workspaceId) !== null;
      },
      async countOwners(workspaceId) {
        return state.members.count((m) => m.workspaceId === workspaceId && m.role === "owner");
      },
      async setRole(workspaceId, userId, role) {
        const member = state.members.get(`${workspaceId}/${userId}`);
        if (member === null) return null;
        state.members.replace({ ...member, role }, undo);
        return details({ ...member, role });
      },
      async remove(workspaceId, userId) {
        state.memberInvites.delete(`${workspaceId}/${userId}`, undo);
        return state.members.delete(`${workspaceId}/${userId}`, undo);
      },
    },
    connectorPages: {
      async listPage(workspaceId, page) {
        const all = state.connectors.filter((c) => c.workspaceId === workspaceId).sort(oldestFirst);
        if (page.startingAfter === undefined) return all.slice(0, page.limit);
        const at = all.findIndex((c) => c.id === page.startingAfter);
        return at === -1 ? [] : all.slice(at + 1, at + 1 + page.limit);
      },
    },
    apiKeyUsage: {
      async touch(keyId, now, minIntervalMs) {
        if (state.apiKeys.get(keyId) === null) return false;
        const current = state.apiKeyUsage.get(keyId);
        if (current !== null && Date.parse(current.lastUsedAt) >= Date.parse(now) - minIntervalMs) return false;
        if (current === null) state.apiKeyUsage.insert({ keyId, lastUsedAt: now }, undo);
        else state.apiKeyUsage.replace({ keyId, lastUsedAt: now }, undo);
        return true;
      },
      async lastUsed(keyIds) {
        const out = new Map<string, string>();
        for (const id of keyIds) {
          const usage = state.apiKeyUsage.get(id);
          if (usage !== null) out.set(id, usage.lastUsedAt);
        }
        return out;
      },
    },
    connectorLeads: {
      async listByConnector(connectorId, page) {
        const newestFirst = (a: LeadEventRecord, b: LeadEventRecord) =>
          b.receivedAt.localeCompare(a.receivedAt) || b.id.localeCompare(a.id);
        const all = state.leads.filter((l) => l.connectorId === connectorId).sort(newestFirst);
        const start = page.startingAfter === undefined ? 0 : all.findIndex((l) => l.id === page.startingAfter) + 1;
        if (start === 0 && page.startingAfter !== undefined) return [];
        return all.slice(start, start + page.limit).map((lead) => {
          const message = state.outbound.lookup("lead", lead.id);
          const earlier = state.leads.count(
            (p) =>
              p.workspaceId === lead.workspaceId &&
              p.contactId === lead.contactId &&
              (p.receivedAt < lead.receivedAt || (p.receivedAt === lead.receivedAt && p.id < lead.id)),
          );
          return {
            id: lead.id,
            receivedAt: lead.receivedAt,
            sourceLeadId: lead.sourceLeadId,
            duplicate: earlier > 0,
            outboundStatus: message?.status ?? null,
            outboundReason: message?.reason ?? null,
            rejectedQualification: lead.qualificationRejected,
          };
        });
      },
    },
  };
}
