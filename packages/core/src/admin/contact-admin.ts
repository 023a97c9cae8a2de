import type { ContactService } from "../contacts/contact-service.js";
import type { Clock } from "../ports/clock.js";
import type { ErasureRecord } from "../ports/storage.js";
import type { PrivacyService } from "../privacy/privacy-service.js";
import { requireManager, type AdminCaller } from "./admin-caller.js";
import { consentEntryView, contactConsentView, type ConsentEntryView, type ContactConsentView } from "./admin-views.js";

/**
 * Contacts for the admin API, as consent sees them: members read a contact and its consent ledger;
 * owners and admins record an opt-out asked for off the channel. The ledger names who recorded it:
 * the console user, or the credential's id (an API key's; an OAuth grant's).
 */
export function createContactAdmin(deps: { contacts: ContactService; privacy: PrivacyService; clock: Clock }) {
  const { contacts, privacy, clock } = deps;
  /** Who asked, as the erasure record and the logs name them (never the person erased). */
  const requester = (caller: AdminCaller) =>
    caller.principal.kind === "console"
      ? `console:${caller.userId ?? ""}`
      : `${caller.principal.kind}:${caller.principal.keyId}`;
  return {
    async get(caller: AdminCaller, contactId: string): Promise<ContactConsentView> {
      return contactConsentView(await contacts.get(caller.workspaceId, contactId), clock.now());
    },

    /** The ledger, newest first. */
    async consent(caller: AdminCaller, contactId: string, limit?: number): Promise<{ items: ConsentEntryView[] }> {
      const entries = await contacts.consentLedger(caller.workspaceId, contactId, limit === undefined ? {} : { limit });
      return { items: entries.map(consentEntryView) };
    },

    async optOut(caller: AdminCaller, contactId: string, note: string | undefined): Promise<ContactConsentView> {
      requireManager(caller, "opt contacts out of WhatsApp");
      const bySession = caller.principal.kind === "console";
      const contact = await contacts.optOutContact({
        workspaceId: caller.workspaceId,
        contactId,
        source: bySession ? "console" : "api_key",
        sourceRef: bySession ? (caller.userId ?? null) : caller.principal.keyId,
        ...(note !== undefined && { note }),
      });
      return contactConsentView(contact, clock.now());
    },

    /** The contact a lookup names (`contact_id`, `phone`, `email` or `whatsapp_user_id`): its id only. */
    async lookup(caller: AdminCaller, lookup: unknown): Promise<{ contact_id: string }> {
      requireManager(caller, "look people up for a data request");
      return { contact_id: (await privacy.find(caller.workspaceId, lookup)).id };
    },

    /** Everything held about the contact, as one streamed JSON document. */
    async exportData(caller: AdminCaller, contactId: string): Promise<ReadableStream<Uint8Array>> {
      requireManager(caller, "export a person's data");
      return privacy.exportContact(caller.workspaceId, contactId);
    },

    async erase(caller: AdminCaller, contactId: string): Promise<ErasureRecord> {
      requireManager(caller, "erase a person's data");
      return privacy.eraseContact({ workspaceId: caller.workspaceId, contactId, requestedBy: requester(caller) });
    },

    async erasures(caller: AdminCaller, limit?: number): Promise<{ items: ErasureRecord[] }> {
      requireManager(caller, "read the erasure record");
      return { items: await privacy.listErasures(caller.workspaceId, limit) };
    },
  };
}
export type ContactAdmin = ReturnType<typeof createContactAdmin>;
