import type { ConversationRecord, MessageRecord, StorageRepositories } from "@vitrina/core";
import { affected, type Queryable } from "../driver.js";
import { iso, isoOrNull, json, many, one, placeholders } from "../rows.js";
import { deliveryField, joinDelivery } from "./whatsapp.js";

export const toConversation = (r: any): ConversationRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  contactId: r.contact_id,
  channel: r.channel,
  status: r.status,
  escalatedAt: isoOrNull(r.escalated_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export const toMessage = (r: any): MessageRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  conversationId: r.conversation_id,
  sender: r.sender,
  content: r.content,
  ...(r.provider_message_id != null && { providerMessageId: r.provider_message_id }),
  ...(r.kind != null && { kind: r.kind }),
  ...(r.reply_to != null && { replyTo: r.reply_to }),
  ...(r.details != null && { details: r.details }),
  ...deliveryField(r),
  ...(r.content_redacted_at != null && { contentRedactedAt: iso(r.content_redacted_at) }),
  createdAt: iso(r.created_at),
});

const conversationValues = (c: ConversationRecord) => [
  c.id,
  c.workspaceId,
  c.contactId,
  c.channel,
  c.status,
  c.escalatedAt,
  c.createdAt,
  c.updatedAt,
];

/** `LIMIT NULL` means no limit in PostgreSQL. */
const limitOf = (options?: { limit?: number }) => options?.limit ?? null;

export function conversationRepositories(
  q: Queryable,
  s: string,
): Pick<StorageRepositories, "conversations" | "messages"> {
  return {
    conversations: {
      async insert(c) {
        await q.query(
          `INSERT INTO ${s}.conversations (id, workspace_id, contact_id, channel, status, escalated_at, created_at, updated_at) VALUES (${placeholders(8)})`,
          conversationValues(c),
        );
      },
      get: (workspaceId, id) =>
        one(
          q,
          `SELECT * FROM ${s}.conversations WHERE workspace_id = $1 AND id = $2`,
          [workspaceId, id],
          toConversation,
        ),
      listByWorkspace: (workspaceId, options = {}) =>
        many(
          q,
          `SELECT * FROM ${s}.conversations WHERE workspace_id = $1 AND ($2::text IS NULL OR status = $2)
           ORDER BY updated_at DESC, id DESC LIMIT $3`,
          [workspaceId, options.status ?? null, limitOf(options)],
          toConversation,
        ),
      async update(c) {
        const result = await q.query(
          `UPDATE ${s}.conversations SET workspace_id = $2, contact_id = $3, channel = $4, status = $5, escalated_at = $6, created_at = $7, updated_at = $8 WHERE id = $1`,
          conversationValues(c),
        );
        return affected(result) > 0;
      },
      findActive: (workspaceId, contactId, channel) =>
        one(
          q,
          `SELECT * FROM ${s}.conversations WHERE workspace_id = $1 AND contact_id = $2 AND channel = $3 AND status <> 'closed'
           ORDER BY updated_at DESC, id DESC LIMIT 1`,
          [workspaceId, contactId, channel],
          toConversation,
        ),
      async touch(workspaceId, id, updatedAt) {
        // Only updated_at: a concurrent escalation's status and escalated_at survive. The status
        // guard is re-checked on the latest version, so a close committed meanwhile wins.
        const result = await q.query(
          `UPDATE ${s}.conversations SET updated_at = $3 WHERE workspace_id = $1 AND id = $2 AND status <> 'closed'`,
          [workspaceId, id, updatedAt],
        );
        return affected(result) > 0;
      },
      // The `escalated_at IS NULL` guard is re-checked on the row's latest version after a concurrent
      // writer commits (READ COMMITTED), so a second escalation updates nothing.
      escalate: (workspaceId, id, at) =>
        one(
          q,
          `UPDATE ${s}.conversations SET status = 'pending', escalated_at = $3, updated_at = $3
           WHERE workspace_id = $1 AND id = $2 AND escalated_at IS NULL RETURNING *`,
          [workspaceId, id, at],
          toConversation,
        ),
    },
    messages: {
      async insert(m) {
        await q.query(
          `INSERT INTO ${s}.messages (id, workspace_id, conversation_id, sender, content, created_at, provider_message_id,
             kind, reply_to, details) VALUES (${placeholders(10)})`,
          [
            m.id,
            m.workspaceId,
            m.conversationId,
            m.sender,
            m.content,
            m.createdAt,
            m.providerMessageId ?? null,
            m.kind ?? null,
            m.replyTo ?? null,
            m.details === undefined ? null : json(m.details),
          ],
        );
      },
      listByConversation: (conversationId, options = {}) =>
        many(
          q,
          `SELECT m.*, row_to_json(d) AS delivery FROM ${s}.messages m ${joinDelivery(s, "m")}
           WHERE m.conversation_id = $1 ORDER BY m.created_at DESC, m.id DESC LIMIT $2`,
          [conversationId, limitOf(options)],
          toMessage,
        ),
      findByProviderId: (workspaceId, providerMessageId) =>
        one(
          q,
          `SELECT m.*, row_to_json(d) AS delivery FROM ${s}.messages m ${joinDelivery(s, "m")}
           WHERE m.workspace_id = $1 AND m.provider_message_id = $2`,
          [workspaceId, providerMessageId],
          toMessage,
        ),
      async setProviderMessageId(workspaceId, id, providerMessageId) {
        const result = await q.query(
          `UPDATE ${s}.messages SET provider_message_id = $3 WHERE workspace_id = $1 AND id = $2`,
          [workspaceId, id, providerMessageId],
        );
        return affected(result) > 0;
      },
      async delete(workspaceId, id) {
        return (
          affected(await q.query(`DELETE FROM ${s}.messages WHERE workspace_id = $1 AND id = $2`, [workspaceId, id])) >
          0
        );
      },
    },
  };
}
