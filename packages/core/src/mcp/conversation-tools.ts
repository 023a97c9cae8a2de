import { z } from "zod";
import { sendHumanMessage } from "../conversations/send-human-message.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/ids.js";
import type { MessagingTransport } from "../ports/messaging.js";
import type { ConversationRecord } from "../ports/records.js";
import type { Storage } from "../ports/storage.js";
import { zodTool, type ToolDefinition } from "./tool-definition.js";

/** list_conversations answers at most this many, most recently updated first (the spec gives no paging). */
export const LIST_CONVERSATIONS_LIMIT = 100;

const conversationView = z.strictObject({
  id: z.string(),
  contact_id: z.string(),
  channel: z.string(),
  status: z.enum(["open", "pending", "closed"]),
  escalated_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

function toView(c: ConversationRecord): z.infer<typeof conversationView> {
  return {
    id: c.id,
    contact_id: c.contactId,
    channel: c.channel,
    status: c.status,
    escalated_at: c.escalatedAt,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

export function conversationTools(deps: {
  storage: Storage;
  messaging: MessagingTransport;
  clock: Clock;
  ids: IdGenerator;
}): ToolDefinition[] {
  const listConversations = zodTool({
    name: "list_conversations",
    title: "List conversations",
    description: `Lists the workspace's conversations, most recently active first (at most ${LIST_CONVERSATIONS_LIMIT}), optionally only those with one status.`,
    input: z.strictObject({
      status: z.enum(["open", "pending", "closed"]).optional().describe("Only conversations in this status"),
    }),
    output: z.strictObject({ items: z.array(conversationView) }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: { requiredScopes: ["conversations:read"], scopeMatch: "anyOf" },
    async run({ status }, { principal }) {
      const rows = await deps.storage.conversations.listByWorkspace(principal.workspaceId, {
        ...(status && { status }),
        limit: LIST_CONVERSATIONS_LIMIT,
      });
      return { structured: { items: rows.map(toView) } };
    },
  });

  const sendMessage = zodTool({
    name: "send_message",
    title: "Send message",
    description:
      "Sends a text message into a conversation as a human (not as the agent), through the conversation's channel, and records it in the history.",
    input: z.strictObject({
      conversation_id: z.string().min(1).describe("Id of the conversation"),
      text: z
        .string()
        .min(1)
        .max(4096)
        // PostgreSQL text cannot hold U+0000, and no messaging channel delivers it.
        .refine((text) => !text.includes("\u0000"), { error: "must not contain NUL (U+0000) characters" })
        .describe("The message text (WhatsApp allows up to 4096 characters)"),
    }),
    output: z.strictObject({
      message_id: z.string(),
      conversation_id: z.string(),
      sender: z.literal("human"),
      status: z.enum(["sent", "queued"]),
      provider_message_id: z.string().nullable(),
      created_at: z.string(),
    }),
    // Reaches a real person (open world) and sends again when called again (not idempotent). It only
    // adds to the history, so not destructive in MCP's sense (destructive = deletes or overwrites).
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    scope: { requiredScopes: ["conversations:write"], scopeMatch: "anyOf" },
    async run(input, { principal }) {
      const { message, delivery } = await sendHumanMessage(deps, {
        workspaceId: principal.workspaceId,
        conversationId: input.conversation_id,
        text: input.text,
      });
      return {
        structured: {
          message_id: message.id,
          conversation_id: message.conversationId,
          sender: "human" as const,
          status: delivery.status,
          provider_message_id: delivery.providerMessageId,
          created_at: message.createdAt,
        },
      };
    },
  });
  return [listConversations, sendMessage];
}
