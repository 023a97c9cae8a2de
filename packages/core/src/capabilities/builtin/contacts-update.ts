import { z } from "zod";
import { VitrinaError } from "../../errors.js";
import { e164Phone } from "../../validation/e164-phone.js";
import type { ContactRecord } from "../../ports/records.js";
import type { ContactPatch } from "../../ports/storage.js";
import { defineCapability, type CapabilityContext } from "../definition.js";
import { requiredId } from "./schema-parts.js";

const input = z.strictObject({
  contact_id: requiredId("contact"),
  name: z.string().min(1).max(200).optional(),
  phone: e164Phone.optional(),
  email: z.email({ error: "must be an email address" }).max(320).optional(),
  tags: z.array(z.string().min(1).max(64)).max(50).optional().describe("Replaces the contact's tags"),
});
type UpdateInput = z.output<typeof input>;

/** The business failure when the new phone is already another contact's, the same on every adapter. */
export const PHONE_TAKEN = "another contact already has this phone";

/**
 * Only the columns this update names; a column it does not name is never written, so an opt-out
 * or consent recorded concurrently survives. Consent evidence belongs to the phone it was given
 * for: moving the contact to another phone drops it.
 */
function changesFor(contact: ContactRecord, change: UpdateInput): ContactPatch {
  const phoneChanges = change.phone !== undefined && change.phone !== contact.phoneE164;
  return {
    ...(change.name !== undefined && { name: change.name }),
    ...(change.phone !== undefined && { phoneE164: change.phone }),
    ...(change.email !== undefined && { email: change.email }),
    ...(change.tags !== undefined && { tags: [...new Set(change.tags)] }),
    ...(phoneChanges && { whatsappConsent: null }),
  };
}

/** Whether `contact` already shows every field this update asks for. */
function reflects(contact: ContactRecord, change: UpdateInput): boolean {
  const sameTags = (tags: string[]) => {
    const wanted = new Set(change.tags);
    return tags.length === wanted.size && tags.every((t) => wanted.has(t));
  };
  return (
    (change.name === undefined || contact.name === change.name) &&
    (change.phone === undefined || contact.phoneE164 === change.phone) &&
    (change.email === undefined || contact.email === change.email) &&
    (change.tags === undefined || sameTags(contact.tags))
  );
}

/**
 * A command under `logical-attempt`: the runtime records the attempt; this file only applies the
 * change and, for a retry of an attempt whose outcome was lost, says whether it already happened.
 * Business failures (unknown contact, phone taken) are outputs `{ ok: false, error }`, as the spec
 * asks; anything thrown is an outage and leaves the attempt `unknown`.
 */
export const contactsUpdate = defineCapability({
  name: "contacts.update",
  version: "1.0.0",
  summary: "Changes basic contact data: name, phone, email, tags.",
  execution: "command",
  riskClass: "write",
  requiredScopes: ["customers:write"],
  scopeMatch: "allOf",
  input,
  output: z.strictObject({ ok: z.boolean(), error: z.string().optional() }),
  idempotency: {
    required: true,
    strategy: "logical-attempt",
    async reconcile({ storage, workspaceId }: CapabilityContext, change: UpdateInput) {
      const contact = await storage.contacts.get(workspaceId, change.contact_id);
      return contact !== null && reflects(contact, change) ? { ok: true } : null;
    },
  },
  async run({ storage, workspaceId, clock }, change) {
    const now = clock.now().toISOString();
    try {
      return await storage.transaction(async (tx) => {
        const contact = await tx.contacts.getForUpdate(workspaceId, change.contact_id);
        if (contact === null) return { output: { ok: false, error: `contact ${change.contact_id} does not exist` } };
        await tx.contacts.patch(workspaceId, contact.id, changesFor(contact, change), now);
        return { output: { ok: true } };
      });
    } catch (error) {
      if (!(error instanceof VitrinaError && error.code === "conflict")) throw error;
      // The phone is a contact's only unique field. Said in the capability's words: the adapter's
      // own message (on PostgreSQL, the SQL constraint's) is not an output agents should depend on,
      // and it is recorded and replayed with the attempt.
      const message = change.phone === undefined ? error.message : PHONE_TAKEN;
      return { output: { ok: false, error: message } };
    }
  },
});
