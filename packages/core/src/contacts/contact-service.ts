import { contactRecord } from "./contact-record.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { ConsentLedgerEntry, ConsentSource, ContactRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import { NotFoundError } from "../errors.js";
import { parseOrThrow } from "../validation.js";
import { e164Phone } from "../validation/e164-phone.js";
import { recordConsentChange } from "../consent/record-consent-change.js";
import { isStorableText } from "../validation/storable-text.js";
import { z } from "zod";

/** Who asked, for the ledger: a call in code, a console user, an API key. */
const requestedBy = {
  source: z.enum(["service", "console", "api_key"]).default("service"),
  sourceRef: z.string().min(1).max(200).nullable().default(null),
  note: z
    .string()
    .max(500, { error: "must be at most 500 characters" })
    .refine(isStorableText, { error: "must not contain U+0000 or a lone UTF-16 surrogate" })
    .optional(),
};
const optOutInput = z.strictObject({ workspaceId: z.string().min(1), phoneE164: e164Phone, ...requestedBy });
const optOutContactInput = z.strictObject({
  workspaceId: z.string().min(1),
  contactId: z.string().min(1),
  ...requestedBy,
});

/** The ledger's page size when the caller names none, and the most it answers. */
export const CONSENT_LEDGER_LIMIT = 200;

export function createContactService(deps: { storage: Storage; clock: Clock; ids: IdGenerator }) {
  const { storage, clock, ids } = deps;

  /** The off-channel opt-out's ledger change, with who asked. */
  const offChannel = (
    input: { workspaceId: string; source: ConsentSource; sourceRef: string | null; note?: string | undefined },
    contactId: string,
    now: string,
  ) => ({
    workspaceId: input.workspaceId,
    contactId,
    kind: "opted_out" as const,
    source: input.source,
    sourceRef: input.sourceRef,
    evidence: { request: "off_channel", ...(input.note !== undefined && { note: input.note }) },
    occurredAt: now,
    dedupeKey: null,
  });

  return {
    /**
     * Records that the owner of `phoneE164` opted out of WhatsApp, asked off the channel (by phone,
     * by email, in person): WhatsApp's policy requires honouring those too. From then on no first
     * message is sent to them, whatever consent a lead carries, until they opt back in on the
     * channel themselves. Creates the contact when the workspace doesn't know the phone yet. The
     * change is appended to the consent ledger (`source`: `service` unless given).
     */
    async optOutOfWhatsApp(input: z.input<typeof optOutInput>): Promise<ContactRecord> {
      const parsed = parseOrThrow(optOutInput, input, "opt-out");
      const now = clock.now().toISOString();
      return storage.transaction(async (tx) => {
        const { contact } = await tx.contacts.insertOrGetByPhone(
          contactRecord({
            id: ids(),
            workspaceId: parsed.workspaceId,
            phoneE164: parsed.phoneE164,
            createdAt: now,
            updatedAt: now,
          }),
        );
        // One targeted write (the first opt-out wins): a lead registering concurrently for this
        // phone can fill the name or record consent, but never clears the opt-out.
        return (await recordConsentChange(tx, deps, offChannel(parsed, contact.id, now))).contact ?? contact;
      });
    },

    /** `optOutOfWhatsApp` for a contact known by id (the console's and the admin API's "opt out on request"). */
    async optOutContact(input: z.input<typeof optOutContactInput>): Promise<ContactRecord> {
      const parsed = parseOrThrow(optOutContactInput, input, "opt-out");
      const now = clock.now().toISOString();
      return storage.transaction(async (tx) => {
        if ((await tx.contacts.getForUpdate(parsed.workspaceId, parsed.contactId)) === null)
          throw new NotFoundError(`contact ${parsed.contactId} does not exist`);
        const { contact } = await recordConsentChange(tx, deps, offChannel(parsed, parsed.contactId, now));
        return contact!;
      });
    },

    /** The contact, or `not_found`. */
    async get(workspaceId: string, contactId: string): Promise<ContactRecord> {
      const contact = await storage.contacts.get(workspaceId, contactId);
      if (contact === null) throw new NotFoundError(`contact ${contactId} does not exist`);
      return contact;
    },

    /** The contact's consent ledger, newest first: every grant, withdrawal, opt-out and resume with its evidence. */
    async consentLedger(
      workspaceId: string,
      contactId: string,
      options: { limit?: number } = {},
    ): Promise<ConsentLedgerEntry[]> {
      if ((await storage.contacts.get(workspaceId, contactId)) === null)
        throw new NotFoundError(`contact ${contactId} does not exist`);
      const limit = Math.min(Math.max(options.limit ?? CONSENT_LEDGER_LIMIT, 1), CONSENT_LEDGER_LIMIT);
      return storage.consentLedger.listByContact(workspaceId, contactId, { limit });
    },
  };
}
export type ContactService = ReturnType<typeof createContactService>;
