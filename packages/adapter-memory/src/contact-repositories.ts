import { ConflictError, type ContactRecord, type StorageRepositories } from "@vitrina/core";
import type { MemoryState } from "./state.js";
import type { UndoLog } from "./table.js";
import { copyRecord } from "./copy-record.js";

const byCreated = (a: ContactRecord, b: ContactRecord) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/** A new contact, flagged `possibleDuplicateOf` the workspace's oldest contact with its email (if any). */
export function flaggedIfEmailKnown(state: MemoryState, candidate: ContactRecord): ContactRecord {
  const sameEmail =
    candidate.email === null
      ? null
      : state.contacts.firstOf("email", `${candidate.workspaceId}/${candidate.email.toLowerCase()}`, byCreated);
  return { ...candidate, ...(sameEmail !== null && { possibleDuplicateOf: sameEmail.id }) };
}

/**
 * Contacts in memory. Transactions run one at a time here, so `getForUpdate` needs no lock; the
 * targeted writes still set only the fields they name, as the PostgreSQL adapter's do.
 */
export function createContactRepositories(state: MemoryState, undo: UndoLog): Pick<StorageRepositories, "contacts"> {
  function read(workspaceId: string, id: string): ContactRecord | null {
    const contact = state.contacts.get(id);
    return contact?.workspaceId === workspaceId ? contact : null;
  }

  function write(next: ContactRecord): ContactRecord {
    // Not `conflictOf`: it reports the primary key first, which an update always "violates".
    const holder =
      next.phoneE164 === null ? null : state.contacts.lookup("phone", `${next.workspaceId}/${next.phoneE164}`);
    if (holder !== null && holder.id !== next.id) throw new ConflictError("another contact already has this phone");
    state.contacts.replace(next, undo);
    return copyRecord(next);
  }

  return {
    contacts: {
      async insertOrGetByPhone(contact) {
        const existing =
          contact.phoneE164 === null
            ? null
            : state.contacts.lookup("phone", `${contact.workspaceId}/${contact.phoneE164}`);
        if (existing !== null) return { contact: existing, created: false };
        state.contacts.insert(contact, undo);
        return { contact: copyRecord(contact), created: true };
      },
      async resolveForLead(candidate) {
        const existing = state.contacts.lookup("phone", `${candidate.workspaceId}/${candidate.phoneE164}`);
        if (existing === null) {
          const contact = flaggedIfEmailKnown(state, candidate);
          state.contacts.insert(contact, undo);
          return { contact: copyRecord(contact), created: true };
        }
        const fillName = existing.name === null && candidate.name !== null;
        const fillEmail = existing.email === null && candidate.email !== null;
        const consent = candidate.whatsappConsent;
        if (!fillName && !fillEmail && consent === null) return { contact: existing, created: false };
        const contact = write({
          ...existing,
          name: existing.name ?? candidate.name,
          email: existing.email ?? candidate.email,
          whatsappConsent: consent ?? existing.whatsappConsent,
          updatedAt: candidate.updatedAt,
        });
        return { contact, created: false };
      },
      async get(workspaceId, id) {
        return read(workspaceId, id);
      },
      async getForUpdate(workspaceId, id) {
        return read(workspaceId, id);
      },
      async findByPhone(workspaceId, phoneE164) {
        return state.contacts.lookup("phone", `${workspaceId}/${phoneE164}`);
      },
      async findByEmail(workspaceId, email) {
        return state.contacts.firstOf("email", `${workspaceId}/${email.toLowerCase()}`, byCreated);
      },
      async update(contact) {
        if (state.contacts.get(contact.id) === null) return false;
        write(contact);
        return true;
      },
      async patch(workspaceId, id, changes, updatedAt) {
        const current = read(workspaceId, id);
        return current === null ? null : write({ ...current, ...copyRecord(changes), updatedAt });
      },
      async fillMissing(workspaceId, id, fields, updatedAt) {
        const current = read(workspaceId, id);
        if (current === null) return null;
        return write({
          ...current,
          name: current.name ?? fields.name,
          email: current.email ?? fields.email,
          updatedAt,
        });
      },
      async optOutOfWhatsApp(workspaceId, id, at) {
        const current = read(workspaceId, id);
        if (current === null || current.whatsappOptedOutAt !== null) return current;
        // A newer resume wins over a late copy of an older opt-out.
        if (current.whatsappResumedAt !== undefined && current.whatsappResumedAt >= at) return current;
        return write({ ...current, whatsappOptedOutAt: at, updatedAt: at });
      },
      async resumeWhatsApp(workspaceId, id, at) {
        const current = read(workspaceId, id);
        if (current === null) return null;
        const optedOut = current.whatsappOptedOutAt;
        const resumedAt =
          current.whatsappResumedAt !== undefined && current.whatsappResumedAt > at ? current.whatsappResumedAt : at;
        return write({
          ...current,
          whatsappOptedOutAt: optedOut !== null && optedOut <= at ? null : optedOut,
          whatsappResumedAt: resumedAt,
          updatedAt: at,
        });
      },
      async resolveForInbound(candidate) {
        const byUser =
          candidate.whatsappUserId === undefined
            ? null
            : state.contacts.lookup("whatsappUser", `${candidate.workspaceId}/${candidate.whatsappUserId}`);
        if (byUser !== null) return { contact: byUser, created: false };
        const byPhone =
          candidate.phoneE164 === null
            ? null
            : state.contacts.lookup("phone", `${candidate.workspaceId}/${candidate.phoneE164}`);
        if (byPhone !== null) {
          if (byPhone.whatsappUserId !== undefined || candidate.whatsappUserId === undefined)
            return { contact: byPhone, created: false };
          return { contact: write({ ...byPhone, whatsappUserId: candidate.whatsappUserId }), created: false };
        }
        state.contacts.insert(candidate, undo);
        return { contact: copyRecord(candidate), created: true };
      },
      async findByWhatsAppUserId(workspaceId, userId) {
        return state.contacts.lookup("whatsappUser", `${workspaceId}/${userId}`);
      },
      async recordInbound(workspaceId, id, at) {
        const current = read(workspaceId, id);
        if (current === null) return null;
        if (current.whatsappLastInboundAt !== undefined && current.whatsappLastInboundAt >= at) return current;
        return write({ ...current, whatsappLastInboundAt: at });
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
        return found.sort(byCreated).slice(0, limit);
      },
    },
  };
}
