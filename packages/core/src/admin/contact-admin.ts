import type { ContactService } from "../contacts/contact-service.js";
import type { Clock } from "../ports/clock.js";
import { requireManager, type AdminCaller } from "./admin-caller.js";
import { consentEntryView, contactConsentView, type ConsentEntryView, type ContactConsentView } from "./admin-views.js";

/**
 * Contacts for the admin API, as consent sees them: members read a contact and its consent ledger;
 * owners and admins record an opt-out asked for off the channel. The ledger names who recorded it:
 * the console user, or the credential's id (an API key's; an OAuth grant's).
 */
export function createContactAdmin(deps: { contacts: ContactService; clock: Clock }) {
  const { contacts, clock } = deps;
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
  };
}
export type ContactAdmin = ReturnType<typeof createContactAdmin>;
