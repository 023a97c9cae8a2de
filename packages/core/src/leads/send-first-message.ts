import { openConversation } from "../conversations/open-conversation.js";
import { VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { Logger } from "../ports/logger.js";
import type { MessagingTransport, OutgoingMessage } from "../ports/messaging.js";
import type { OutboundMessageRecord } from "../ports/records.js";
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

/**
 * Sends a registered lead's first WhatsApp message (after the lead committed, so a slow provider
 * never holds a transaction open) and records the outcome: `sent`, `queued` (the provider holds
 * it) or `failed` with the provider's reason. A sent or queued message opens the WhatsApp
 * conversation: outcome, conversation, message and `conversation.started` commit together.
 */
export async function sendFirstMessage(
  deps: SendFirstMessageDeps,
  message: OutboundMessageRecord,
  payload: LeadPayload,
): Promise<OutboundMessageRecord> {
  const contact = await deps.storage.contacts.get(message.workspaceId, message.contactId);
  const outgoing = buildFirstMessage(deps.firstMessage, contact!, payload);
  let next: OutboundMessageRecord;
  try {
    const result = await deps.messaging.send(outgoing);
    next = {
      ...message,
      status: result.status,
      reason: result.status === "queued" ? "held by the messaging provider" : null,
      providerMessageId: result.providerMessageId,
    };
  } catch (error) {
    // Provider errors are VitrinaErrors with a message meant for users; anything else is a bug
    // whose details belong in the log, not in the response.
    const reason = error instanceof VitrinaError ? error.message : "messaging transport failed unexpectedly";
    deps.logger.warn("first message failed", { leadEventId: message.leadEventId, error: String(error) });
    next = { ...message, status: "failed", reason };
  }
  next.updatedAt = deps.clock.now().toISOString();
  if (next.status === "failed") {
    await deps.storage.outbound.update(next);
    return next;
  }
  await deps.storage.transaction(async (tx) => {
    await tx.outbound.update(next);
    await openConversation(tx, deps, {
      workspaceId: message.workspaceId,
      contactId: message.contactId,
      channel: "whatsapp",
      startedBy: "lead_intake",
      firstMessage: { sender: "agent", content: describeOutgoing(outgoing) },
    });
  });
  return next;
}
