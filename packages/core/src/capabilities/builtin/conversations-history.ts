import { z } from "zod";
import { NotFoundError } from "../../errors.js";
import { defineCapability } from "../definition.js";
import { DEFAULT_LIMITS, optionalText, requiredId } from "./schema-parts.js";

export const conversationsHistory = defineCapability({
  name: "conversations.history",
  version: "1.0.0",
  summary: "Lists the messages of a conversation, most recent first.",
  execution: "query",
  riskClass: "read",
  requiredScopes: ["conversations:read"],
  scopeMatch: "anyOf",
  input: z.strictObject({
    conversation_id: requiredId("conversation"),
    limit: z
      .number()
      .int()
      .min(0)
      .max(200)
      .optional()
      .describe(`Most messages to return, 0..200; default ${DEFAULT_LIMITS.conversationsHistory}`),
  }),
  output: z.array(z.strictObject({ sender: optionalText, content: optionalText, created_at: optionalText })),
  idempotency: { required: false, strategy: "none" },
  async run({ storage, workspaceId }, { conversation_id, limit = DEFAULT_LIMITS.conversationsHistory }) {
    const conversation = await storage.conversations.get(workspaceId, conversation_id);
    if (conversation === null)
      throw new NotFoundError(`conversation ${conversation_id} does not exist in this workspace`);
    const messages = await storage.messages.listByConversation(conversation_id, { limit });
    return { output: messages.map((m) => ({ sender: m.sender, content: m.content, created_at: m.createdAt })) };
  },
});
