import { continueOrOpenConversation } from "../conversations/open-conversation.js";
import { VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { MessagingTransport, OutgoingMessage } from "../ports/messaging.js";
import type { ContactRecord, OutboundMessageRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import { buildFirstMessage, type FirstMessageOptions } from "./first-message.js";
import type { LeadPayload } from "./lead-schema.js";

export interface SendFirstMessageDeps {
  storage: Storage;
  messaging: MessagingTransport;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  firstMessage: FirstMessageOptions;
}

/** How a template message reads in the conversation history. */
function describeOutgoing(message: OutgoingMessage): string {
  if (message.text !== undefined) return message.text;
  return `[template ${message.template?.name ?? "?"}] ${message.template?.bodyParameters.join(" | ") ?? ""}`.trim();
}

/** Why a message decided at registration must not go out after all, or null. */
function reasonToStop(contact: ContactRecord | null, payload: LeadPayload): string | null {
  if (contact === null) return "the contact was deleted before the message was sent";
  if (contact.whatsappOptedOutAt !== null) return `contact opted out of WhatsApp at ${contact.whatsappOptedOutAt}, before the message was sent`;
  // Consent was given for the lead's phone; never send it to a number the contact has since moved to.
  if (contact.phoneE164 !== payload.contact.phone_e164) return "the contact's phone changed before the message was sent";
  return null;
}

/**
 * Re-checks the contact under its row lock and hands the message to the provider (status stays
 * `queued`, reason "sending") or blocks it. An opt-out that committed before this point stops the
 * send; one that commits after it (while the provider call is in flight) does not: that window is
 * the provider call's length, since no transaction may stay open across it.
 */
async function claimForSending(deps: SendFirstMessageDeps, message: OutboundMessageRecord, payload: LeadPayload) {
  return deps.storage.transaction(async (tx) => {
    const contact = await tx.contacts.getForUpdate(message.workspaceId, message.contactId);
    const stop = reasonToStop(contact, payload);
    const updatedAt = deps.clock.now().toISOString();
    const next: OutboundMessageRecord = stop === null
      ? { ...message, reason: "handed to the messaging provider", updatedAt }
      : { ...message, status: "blocked", reason: stop, updatedAt };
    await tx.outbound.update(next);
    return { contact: stop === null ? contact : null, outbound: next };
  });
}

/**
 * Sends a registered lead's first WhatsApp message (after the lead committed, so a slow provider
 * never holds a transaction open) and records the outcome: `sent`, `queued` (the provider holds
 * it), `failed` with the provider's reason, or `blocked` when the contact opted out in between.
 * A sent or queued message goes into the contact's WhatsApp conversation (opened, with
 * `conversation.started`, only when none is active): outcome, conversation and message commit together.
 */
export async function sendFirstMessage(
  deps: SendFirstMessageDeps,
  message: OutboundMessageRecord,
  payload: LeadPayload,
): Promise<OutboundMessageRecord> {
  const claimed = await claimForSending(deps, message, payload);
  if (claimed.contact === null) return claimed.outbound;
  const outgoing = buildFirstMessage(deps.firstMessage, claimed.contact, payload);
  let next: OutboundMessageRecord;
  try {
    const result = await deps.messaging.send(outgoing);
    next = {
      ...claimed.outbound,
      status: result.status,
      reason: result.status === "queued" ? "held by the messaging provider" : null,
      providerMessageId: result.providerMessageId,
    };
  } catch (error) {
    // Provider errors are VitrinaErrors with a message meant for users; anything else is a bug
    // whose details belong in the log, not in the response.
    const reason = error instanceof VitrinaError ? error.message : "messaging transport failed unexpectedly";
    deps.logger.warn({ leadEventId: message.leadEventId, error: String(error) }, "first message failed");
    next = { ...claimed.outbound, status: "failed", reason };
  }
  next.updatedAt = deps.clock.now().toISOString();
  if (next.status === "failed") {
    await deps.storage.outbound.update(next);
    return next;
  }
  await deps.storage.transaction(async (tx) => {
    // Locked so that two first messages for one contact never both open a thread.
    await tx.contacts.getForUpdate(message.workspaceId, message.contactId);
    await tx.outbound.update(next);
    await continueOrOpenConversation(tx, deps, {
      workspaceId: message.workspaceId,
      contactId: message.contactId,
      channel: "whatsapp",
      startedBy: "lead_intake",
      firstMessage: { sender: "agent", content: describeOutgoing(outgoing) },
    });
  });
  return next;
}
