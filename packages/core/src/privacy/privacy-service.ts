import { VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { ContactRecord } from "../ports/records.js";
import type { ErasureRecord, Storage, SuppressionEntry } from "../ports/storage.js";
import { exportDocumentPieces, streamOf } from "./export-document.js";
import { findPerson } from "./person-lookup.js";
import type { SuppressionHasher } from "./suppression-hash.js";

/** The most erasures `listErasures` answers. */
export const ERASURES_LIMIT = 200;

/**
 * A person's data on request: find them, export everything held about them as one streamed JSON
 * document, erase them. Role checks are the caller's (the admin API allows owners and admins).
 */
export function createPrivacyService(deps: {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  hasher: SuppressionHasher | null;
}) {
  const { storage, clock, ids, logger, hasher } = deps;

  /** The suppression entry kept for `contact` when it had opted out and can be recognised again. */
  async function suppressionFor(contact: ContactRecord, now: string): Promise<SuppressionEntry | null> {
    if (contact.whatsappOptedOutAt === null || hasher === null) return null;
    const { workspaceId } = contact;
    const phoneHash = contact.phoneE164 === null ? null : await hasher.phone(workspaceId, contact.phoneE164);
    const userIdHash =
      contact.whatsappUserId === undefined ? null : await hasher.userId(workspaceId, contact.whatsappUserId);
    if (phoneHash === null && userIdHash === null) return null;
    return { workspaceId, phoneHash, userIdHash, optedOutAt: contact.whatsappOptedOutAt, createdAt: now };
  }

  return {
    /** The contact named by `lookup` (`contact_id`, `phone`, `email` or `whatsapp_user_id`), or `not_found`. */
    find: (workspaceId: string, lookup: unknown) => findPerson(storage, workspaceId, lookup),

    /**
     * Everything held about the contact as one JSON document (shape: docs/interface.md), streamed
     * page by page from storage. Throws `not_found` before the first byte when the contact does not exist.
     */
    async exportContact(workspaceId: string, contactId: string): Promise<ReadableStream<Uint8Array>> {
      const contact = await findPerson(storage, workspaceId, { contact_id: contactId });
      return streamOf(exportDocumentPieces(storage, contact, clock.now().toISOString()));
    },

    /**
     * Erases the contact in one transaction: every copy of their personal data is removed or
     * redacted (see `personalData.erase`), a suppression entry is kept when they had opted out, and
     * the erasure is recorded (who, when, counts). `requestedBy` names who asked, never the person.
     */
    async eraseContact(input: { workspaceId: string; contactId: string; requestedBy: string }): Promise<ErasureRecord> {
      if (hasher === null)
        throw new VitrinaError(
          "invalid_argument",
          "erasure needs a secret box that derives keys (createAesGcmSecretBox does): the suppression entry is a keyed hash",
        );
      const now = clock.now().toISOString();
      const erasure = await storage.transaction(async (tx) => {
        const contact = await tx.personalData.lockForErasure(input.workspaceId, input.contactId);
        if (contact === null) throw new VitrinaError("not_found", `contact ${input.contactId} does not exist`);
        const record = {
          id: ids(),
          workspaceId: input.workspaceId,
          contactId: input.contactId,
          requestedBy: input.requestedBy,
          erasedAt: now,
        };
        const suppression = await suppressionFor(contact, now);
        const counts = await tx.personalData.erase(input.workspaceId, input.contactId, {
          suppression,
          record,
          at: now,
        });
        return { ...record, counts, suppressed: suppression !== null };
      });
      const { suppressed, ...recorded } = erasure;
      // Ids and counts only: the person's data is gone, and must not reappear in the logs.
      logger.info(
        {
          workspaceId: recorded.workspaceId,
          contactId: recorded.contactId,
          erasureId: recorded.id,
          // Only the kind of requester: a console user id may be an email; the record names them.
          requestedBy: recorded.requestedBy.split(":")[0],
          counts: recorded.counts,
          suppressed,
        },
        "contact erased",
      );
      return recorded;
    },

    /** The workspace's erasures, newest first: who asked, when, how many rows of each kind. */
    listErasures: (workspaceId: string, limit = ERASURES_LIMIT) =>
      storage.personalData.listErasures(workspaceId, { limit: Math.min(Math.max(limit, 1), ERASURES_LIMIT) }),
  };
}
export type PrivacyService = ReturnType<typeof createPrivacyService>;
