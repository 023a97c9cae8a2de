import { emitEvent } from "../events/emit-event.js";
import type { EventData } from "../events/event-schemas.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { ConversationRecord, MessageRecord } from "../ports/records.js";
import type { StorageTransaction } from "../ports/storage.js";

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
  const now = deps.clock.now().toISOString();
  const conversation: ConversationRecord = {
    id: deps.ids(),
    workspaceId: input.workspaceId,
    contactId: input.contactId,
    channel: input.channel,
    status: "open",
    escalatedAt: null,
    createdAt: now,
    updatedAt: now,
  };
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
  await emitEvent(tx, deps, {
    workspaceId: input.workspaceId,
    type: "conversation.started",
    data: {
      conversation_id: conversation.id,
      contact_id: input.contactId,
      channel: input.channel,
      started_by: input.startedBy,
    },
  });
  return { conversation, message };
}

/**
 * Adds `firstMessage` to the contact's active conversation on the channel when there is one
 * (bumping its `updatedAt`, no event), or opens one as `openConversation` does. Call it with the
 * contact's row locked, so two callers for one contact never both open a thread; on WhatsApp a
 * unique rule refuses a second active one anyway.
 */
export async function continueOrOpenConversation(
  tx: StorageTransaction,
  deps: { clock: Clock; ids: IdGenerator },
  input: OpenConversationInput & { firstMessage: { sender: string; content: string } },
): Promise<{ conversation: ConversationRecord; message: MessageRecord | null; opened: boolean }> {
  const active = await tx.conversations.findActive(input.workspaceId, input.contactId, input.channel);
  if (active === null) return { ...(await openConversation(tx, deps, input)), opened: true };
  const now = deps.clock.now().toISOString();
  const message: MessageRecord = {
    id: deps.ids(),
    workspaceId: input.workspaceId,
    conversationId: active.id,
    ...input.firstMessage,
    createdAt: now,
  };
  await tx.messages.insert(message);
  await tx.conversations.touch(input.workspaceId, active.id, now);
  return { conversation: { ...active, updatedAt: now }, message, opened: false };
}
