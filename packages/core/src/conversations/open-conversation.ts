import { emitEvent, newEvent } from "../events/emit-event.js";
import type { EventData } from "../events/event-schemas.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { ConversationRecord, MessageRecord } from "../ports/records.js";
import type { FirstMessageThread, StorageTransaction } from "../ports/storage.js";

export interface OpenConversationInput {
  workspaceId: string;
  contactId: string;
  channel: string;
  startedBy: EventData<"conversation.started">["started_by"];
  /** The opening message, stored in the same transaction. */
  firstMessage?: { sender: string; content: string };
}

/**
 * Opens a conversation (and its first message) and emits `conversation.started`, all inside the
 * caller's transaction. Lead intake and the conversation service both open threads this way.
 */
export async function openConversation(
  tx: StorageTransaction,
  deps: { clock: Clock; ids: IdGenerator },
  input: OpenConversationInput,
): Promise<{ conversation: ConversationRecord; message: MessageRecord | null }> {
  const conversation = newConversation(deps, input);
  const now = conversation.createdAt;
  await tx.conversations.insert(conversation);
  let message: MessageRecord | null = null;
  if (input.firstMessage) {
    message = {
      id: deps.ids(),
      workspaceId: input.workspaceId,
      conversationId: conversation.id,
      ...input.firstMessage,
      createdAt: now,
    };
    await tx.messages.insert(message);
  }
  await emitEvent(tx, deps, conversationStarted(conversation, input.startedBy));
  return { conversation, message };
}

function newConversation(
  deps: { clock: Clock; ids: IdGenerator },
  input: Pick<OpenConversationInput, "workspaceId" | "contactId" | "channel">,
): ConversationRecord {
  const now = deps.clock.now().toISOString();
  return {
    id: deps.ids(),
    workspaceId: input.workspaceId,
    contactId: input.contactId,
    channel: input.channel,
    status: "open",
    escalatedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

function conversationStarted(conversation: ConversationRecord, startedBy: OpenConversationInput["startedBy"]) {
  return {
    workspaceId: conversation.workspaceId,
    type: "conversation.started" as const,
    data: {
      conversation_id: conversation.id,
      contact_id: conversation.contactId,
      channel: conversation.channel,
      started_by: startedBy,
    },
  };
}

/**
 * What `outbound.recordOutcome` needs to put a first message that went out into the contact's
 * WhatsApp history: the message, and the conversation and `conversation.started` event to open
 * when the contact has no active thread. Storage decides which, in the same atomic step, so two
 * first messages for one contact never open two threads.
 */
export function whatsappThreadFor(
  deps: { clock: Clock; ids: IdGenerator },
  input: { workspaceId: string; contactId: string; startedBy: OpenConversationInput["startedBy"] },
  firstMessage: { sender: string; content: string; providerMessageId?: string },
): FirstMessageThread {
  const conversation = newConversation(deps, { ...input, channel: "whatsapp" });
  const { record, retryUntil } = newEvent(deps, conversationStarted(conversation, input.startedBy));
  return {
    conversation,
    message: { id: deps.ids(), workspaceId: input.workspaceId, ...firstMessage, createdAt: conversation.createdAt },
    started: record,
    retryUntil,
  };
}
