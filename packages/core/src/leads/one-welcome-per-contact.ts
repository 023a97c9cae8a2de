import type { ContactRecord } from "../ports/records.js";
import type { StorageTransaction } from "../ports/storage.js";
import {
  DEFAULT_FIRST_MESSAGE_WINDOW_MS,
  type FirstMessageDecision,
  type FirstMessageOptions,
} from "./first-message.js";

/**
 * One welcome per person: an otherwise eligible first message is `blocked` when the contact already
 * got one (`queued` or `sent`) within the window. Call it with the contact's row locked
 * (`contacts.resolveForLead` returns it so): every lead for the contact passes here one at a time,
 * so two concurrent leads cannot both see "no earlier message". A contact this transaction
 * `created` has a new id no message can name yet, so it is not looked up.
 */
export async function limitToOneWelcome(
  tx: StorageTransaction,
  options: Pick<FirstMessageOptions, "oncePerContactWithinMs">,
  { contact, created }: { contact: ContactRecord; created: boolean },
  decision: FirstMessageDecision,
  now: Date,
): Promise<FirstMessageDecision> {
  const windowMs = options.oncePerContactWithinMs ?? DEFAULT_FIRST_MESSAGE_WINDOW_MS;
  if (!decision.eligible || windowMs <= 0 || created) return decision;
  const since = new Date(now.getTime() - windowMs).toISOString();
  const earlier = await tx.outbound.findLatestLiveByContact(contact.workspaceId, contact.id, since);
  if (earlier === null) return decision;
  const hours = Math.round((windowMs / 3_600_000) * 100) / 100;
  return {
    eligible: false,
    status: "blocked",
    reason: `contact already got a first message (outbound ${earlier.id}, lead ${earlier.leadEventId}, ${earlier.status} at ${earlier.createdAt}) within the last ${hours} h`,
  };
}
