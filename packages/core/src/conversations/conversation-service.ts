import { z } from "zod";
import { NotFoundError, ConflictError } from "../errors.js";
import { emitEvent } from "../events/emit-event.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { MessagingTransport } from "../ports/messaging.js";
import type { ConversationRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import { parseOrThrow } from "../validation.js";
import { openConversation } from "./open-conversation.js";
import { sendHumanMessage, type SentHumanMessage } from "./send-human-message.js";

const startInput = z.strictObject({
  workspaceId: z.string().min(1),
  contactId: z.string().min(1),
  channel: z.string().min(1).max(40),
  startedBy: z.enum(["contact", "agent", "human", "lead_intake"]),
  firstMessage: z.strictObject({ sender: z.string().min(1), content: z.string().min(1) }).optional(),
});

const escalateInput = z.strictObject({
  workspaceId: z.string().min(1),
  conversationId: z.string().min(1),
  reason: z.string().min(1).max(500),
  escalatedBy: z.string().min(1),
  assignedTo: z.string().min(1).nullable().default(null),
});

const sendInput = z.strictObject({
  workspaceId: z.string().min(1),
  conversationId: z.string().min(1),
  text: z.string().min(1).max(4096),
});

/**
 * Conversations on any channel: open one (`conversation.started`), hand it to a person
 * (`conversation.escalated`), write in it as that person (`sendHumanMessage`).
 */
export function createConversationService(deps: {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  messaging: MessagingTransport;
}) {
  const { storage, clock } = deps;
  return {
    async start(input: z.input<typeof startInput>): Promise<ConversationRecord> {
      const parsed = parseOrThrow(startInput, input, "conversation");
      return storage.transaction(async (tx) => {
        // Locked: lead intake adds to the contact's WhatsApp thread under the same lock.
        if ((await tx.contacts.getForUpdate(parsed.workspaceId, parsed.contactId)) === null) {
          throw new NotFoundError(`contact ${parsed.contactId} does not exist`);
        }
        return (await openConversation(tx, deps, parsed)).conversation;
      });
    },

    /** Marks the conversation `pending` for a person; escalating twice is refused (`conflict`). */
    async escalate(input: z.input<typeof escalateInput>): Promise<ConversationRecord> {
      const parsed = parseOrThrow(escalateInput, input, "escalation");
      return storage.transaction(async (tx) => {
        // One conditional write, not read-then-write: two concurrent escalations must not both win.
        const current = await tx.conversations.escalate(
          parsed.workspaceId,
          parsed.conversationId,
          clock.now().toISOString(),
        );
        if (current === null) {
          const existing = await tx.conversations.get(parsed.workspaceId, parsed.conversationId);
          if (existing === null) throw new NotFoundError(`conversation ${parsed.conversationId} does not exist`);
          throw new ConflictError(`conversation was already escalated at ${existing.escalatedAt}`);
        }
        await emitEvent(tx, deps, {
          workspaceId: parsed.workspaceId,
          type: "conversation.escalated",
          data: {
            conversation_id: current.id,
            contact_id: current.contactId,
            channel: current.channel,
            reason: parsed.reason,
            escalated_by: parsed.escalatedBy,
            assigned_to: parsed.assignedTo,
          },
        });
        return current;
      });
    },

    /**
     * Sends `text` into a WhatsApp conversation as a person (not the agent) and records it; the
     * record commits before the provider is called, so a retry never sends twice (see
     * `send-human-message.ts`). The MCP tool `send_message` runs the same function.
     */
    async sendHumanMessage(input: z.input<typeof sendInput>): Promise<SentHumanMessage> {
      return sendHumanMessage(deps, parseOrThrow(sendInput, input, "message"));
    },
  };
}
export type ConversationService = ReturnType<typeof createConversationService>;
