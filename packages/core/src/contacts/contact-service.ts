import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { ContactRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import { parseOrThrow } from "../validation.js";
import { e164Phone } from "../leads/lead-schema.js";
import { z } from "zod";

const optOutInput = z.strictObject({ workspaceId: z.string().min(1), phoneE164: e164Phone });

export function createContactService(deps: { storage: Storage; clock: Clock; ids: IdGenerator }) {
  const { storage, clock, ids } = deps;
  return {
    /**
     * Records that the owner of `phoneE164` opted out of WhatsApp (for example after replying
     * STOP). From then on no first message is sent to them, whatever consent a lead carries.
     * Creates the contact when the workspace doesn't know the phone yet.
     */
    async optOutOfWhatsApp(input: { workspaceId: string; phoneE164: string }): Promise<ContactRecord> {
      const { workspaceId, phoneE164 } = parseOrThrow(optOutInput, input, "opt-out");
      const now = clock.now().toISOString();
      return storage.transaction(async (tx) => {
        const { contact, created } = await tx.contacts.insertOrGetByPhone({
          id: ids(),
          workspaceId,
          name: null,
          phoneE164,
          email: null,
          tags: [],
          score: null,
          ltv: null,
          whatsappConsent: null,
          whatsappOptedOutAt: now,
          createdAt: now,
          updatedAt: now,
        });
        if (created) return contact;
        // One targeted write (the first opt-out wins): a lead registering concurrently for this
        // phone can fill the name or record consent, but never clears the opt-out.
        return (await tx.contacts.optOutOfWhatsApp(workspaceId, contact.id, now)) ?? contact;
      });
    },
  };
}
export type ContactService = ReturnType<typeof createContactService>;
