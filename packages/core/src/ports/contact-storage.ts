import type { ContactRecord } from "./records.js";
import type { WhatsAppContactMethods } from "./whatsapp-storage.js";

// Part of the Storage port (contacts: one per phone per workspace.); see storage.ts.

export interface ContactRepository extends WhatsAppContactMethods {
  /**
   * Inserts unless the workspace already has a contact with this phone; either way returns the
   * stored contact and whether it was created.
   */
  insertOrGetByPhone(contact: ContactRecord): Promise<{ contact: ContactRecord; created: boolean }>;
  /**
   * Lead intake's contact, in one step, locked until the transaction ends (as `getForUpdate`).
   * When the workspace has no contact with `candidate.phoneE164`, inserts `candidate`, flagged
   * `possibleDuplicateOf` the oldest contact with the same email (case-insensitive) when there is
   * one. Otherwise updates the existing contact column by column: a null `name` / `email` is
   * filled from the candidate, the candidate's `whatsappConsent`, when not null, becomes the
   * contact's latest, `updatedAt` moves only when something changed, and nothing else is written
   * (an opt-out committed meanwhile survives). Concurrent calls for one new phone create one
   * contact; the others wait for it and update it. `created` is true only for the call that
   * inserted the row: lead intake skips the one-welcome look-up for such a contact, since no
   * message can name an id nobody else has seen yet.
   */
  resolveForLead(candidate: ContactRecord): Promise<{ contact: ContactRecord; created: boolean }>;
  get(workspaceId: string, id: string): Promise<ContactRecord | null>;
  findByPhone(workspaceId: string, phoneE164: string): Promise<ContactRecord | null>;
  findByEmail(workspaceId: string, email: string): Promise<ContactRecord | null>;
  /**
   * Reads the contact and locks it until the transaction ends (PostgreSQL: `SELECT … FOR UPDATE`),
   * so a decision taken on it (send or not, which fields to fill) cannot be undercut by a
   * concurrent opt-out. Only meaningful inside `transaction`; adapters that run one transaction at
   * a time return the row as `get` does.
   */
  getForUpdate(workspaceId: string, id: string): Promise<ContactRecord | null>;
  /**
   * Sets only the columns in `changes` (and `updatedAt`); every other column keeps whatever it
   * holds at that moment, including values a concurrent transaction wrote after this one read the
   * row. Returns the stored record, or null when it does not exist. Fails with `conflict` when the
   * new phone belongs to another contact of the workspace.
   */
  patch(workspaceId: string, id: string, changes: ContactPatch, updatedAt: string): Promise<ContactRecord | null>;
  /**
   * Fills `name` / `email` only where the stored value is null, in one statement (never overwrites,
   * never clears). Returns the stored record, or null when it does not exist.
   */
  fillMissing(
    workspaceId: string,
    id: string,
    fields: { name: string | null; email: string | null },
    updatedAt: string,
  ): Promise<ContactRecord | null>;
  /**
   * Records an opt-out at `at` (the evidence's time): sets `whatsappOptedOutAt` unless it is
   * already set (the first opt-out wins) or the contact resumed at or after `at`
   * (`whatsappResumedAt`: a late copy of an older opt-out never undoes a newer resume), and touches
   * nothing else. Returns the stored record, or null when it does not exist.
   */
  optOutOfWhatsApp(workspaceId: string, id: string, at: string): Promise<ContactRecord | null>;
  /**
   * Writes the whole record (by id); returns false when it does not exist. It overwrites every
   * column with what the caller read, so under concurrency it can erase a value written meanwhile:
   * core uses `patch`, `fillMissing` and `optOutOfWhatsApp` instead. Only for tests and tools that
   * hold the row locked (`getForUpdate`).
   */
  update(contact: ContactRecord): Promise<boolean>;
  /**
   * Contacts whose name or email contains `query` (case-insensitive), or whose phone contains its
   * digits (spaces, dashes and parentheses ignored). Oldest first, at most `limit`.
   */
  search(workspaceId: string, query: string, options: { limit: number }): Promise<ContactRecord[]>;
}

/** The contact columns `ContactRepository.patch` may set; absent keys are left alone. */
export type ContactPatch = Partial<Pick<ContactRecord, "name" | "phoneE164" | "email" | "tags" | "whatsappConsent">>;
