import { ForbiddenError, NotFoundError, VitrinaError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { MessagingTransport, SendResult } from "../ports/messaging.js";
import type { MessageRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";

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
 * The provider is called first and the message and the conversation's `updatedAt` are then written
 * in one transaction: a storage transaction must not stay open across a network call to the
 * provider (it would hold a connection, and a single-connection adapter, for seconds). If the
 * provider refuses, nothing is recorded; if the write fails after a send, the error is thrown and
 * the message was delivered but not recorded (logged by the caller), the rarer and visible case.
 */
export async function sendHumanMessage(
  deps: { storage: Storage; messaging: MessagingTransport; clock: Clock; ids: IdGenerator },
  input: SendHumanMessageInput,
): Promise<SentHumanMessage> {
  const { storage } = deps;
  const conversation = await storage.conversations.get(input.workspaceId, input.conversationId);
  if (conversation === null) throw new NotFoundError(`conversation ${input.conversationId} does not exist`);
  if (conversation.status === "closed") {
    throw new VitrinaError("conflict", `conversation ${conversation.id} is closed; reopen it before sending`);
  }
  if (conversation.channel !== "whatsapp") {
    throw new VitrinaError("invalid_argument", `conversation ${conversation.id} is on channel ${conversation.channel}, which has no messaging transport`);
  }
  const contact = await storage.contacts.get(input.workspaceId, conversation.contactId);
  if (contact?.phoneE164 == null) throw new VitrinaError("invalid_argument", `the contact of conversation ${conversation.id} has no phone number`);
  if (contact.whatsappOptedOutAt !== null) throw new ForbiddenError("forbidden", "the contact opted out of WhatsApp messages");

  const delivery = await deps.messaging.send({ channel: "whatsapp", to: contact.phoneE164, text: input.text });
  const now = deps.clock.now().toISOString();
  const message: MessageRecord = {
    id: deps.ids(),
    workspaceId: input.workspaceId,
    conversationId: conversation.id,
    sender: "human",
    content: input.text,
    createdAt: now,
  };
  await storage.transaction(async (tx) => {
    await tx.messages.insert(message);
    await tx.conversations.update({ ...conversation, updatedAt: now });
  });
  return { message, delivery };
}
