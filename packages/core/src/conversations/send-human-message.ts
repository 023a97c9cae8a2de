import { ConflictError, ForbiddenError, NotFoundError, VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { MessagingTransport, SendResult } from "../ports/messaging.js";
import type { MessageRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import { assertServiceWindowOpen } from "../channels/whatsapp/service-window.js";

export interface SendHumanMessageInput {
  workspaceId: string;
  conversationId: string;
  text: string;
}

export interface SentHumanMessage {
  message: MessageRecord;
  delivery: SendResult;
}

/**
 * Sends `text` into a conversation as a person (not the agent) and records it.
 *
 * The message is recorded (with the conversation's `updatedAt`) before it is handed to the
 * provider, as lead intake records its outbound row first: if the text cannot be stored, nothing
 * is sent, so a caller's retry never sends twice. A storage transaction must not stay open across
 * the provider call, so the record commits first; when the provider then refuses, the record is
 * removed and the error thrown. A crash between the two leaves a recorded message that was never
 * sent, the rarer and visible case.
 */
export async function sendHumanMessage(
  deps: { storage: Storage; messaging: MessagingTransport; clock: Clock; ids: IdGenerator },
  input: SendHumanMessageInput,
): Promise<SentHumanMessage> {
  const { storage } = deps;
  const conversation = await storage.conversations.get(input.workspaceId, input.conversationId);
  if (conversation === null) throw new NotFoundError(`conversation ${input.conversationId} does not exist`);
  if (conversation.status === "closed") {
    throw new ConflictError(`conversation ${conversation.id} is closed; reopen it before sending`);
  }
  if (conversation.channel !== "whatsapp") {
    throw new VitrinaError(
      "invalid_argument",
      `conversation ${conversation.id} is on channel ${conversation.channel}, which has no messaging transport`,
    );
  }
  const now = deps.clock.now().toISOString();
  const message: MessageRecord = {
    id: deps.ids(),
    workspaceId: input.workspaceId,
    conversationId: conversation.id,
    sender: "human",
    content: input.text,
    createdAt: now,
  };
  // The opt-out check and the record share the contact's row lock: an opt-out committed before
  // this transaction stops the send. The status read above may be stale by now: `touch` moves only
  // a conversation that is still not closed, so one closed meanwhile refuses the message here and
  // nothing is recorded or sent.
  const phone = await storage.transaction(async (tx) => {
    const contact = await tx.contacts.getForUpdate(input.workspaceId, conversation.contactId);
    if (contact?.phoneE164 == null)
      throw new VitrinaError("invalid_argument", `the contact of conversation ${conversation.id} has no phone number`);
    if (contact.whatsappOptedOutAt !== null) throw new ForbiddenError("the contact opted out of WhatsApp messages");
    assertServiceWindowOpen(contact, deps.clock.now());
    if (!(await tx.conversations.touch(input.workspaceId, conversation.id, now))) {
      throw new ConflictError(`conversation ${conversation.id} is closed; reopen it before sending`);
    }
    await tx.messages.insert(message);
    return contact.phoneE164;
  });
  let delivery: SendResult;
  try {
    delivery = await deps.messaging.send({
      channel: "whatsapp",
      workspaceId: input.workspaceId,
      to: phone,
      text: input.text,
    });
  } catch (error) {
    await storage.messages.delete(input.workspaceId, message.id);
    throw error;
  }
  // Keyed by the provider's id, the message's delivery reports (sent, delivered, read) join it.
  if (delivery.providerMessageId !== null) {
    await storage.messages.setProviderMessageId(input.workspaceId, message.id, delivery.providerMessageId);
    return { message: { ...message, providerMessageId: delivery.providerMessageId }, delivery };
  }
  return { message, delivery };
}
