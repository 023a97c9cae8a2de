import type { ConversationRecord, ConversationStatus, MessageRecord } from "./records.js";
import type { WhatsAppMessageMethods } from "./whatsapp-storage.js";

// Part of the Storage port (conversations and their messages.); see storage.ts.

export interface ConversationRepository {
  insert(conversation: ConversationRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<ConversationRecord | null>;
  /** Most recently updated first. */
  listByWorkspace(
    workspaceId: string,
    options?: { status?: ConversationStatus; limit?: number },
  ): Promise<ConversationRecord[]>;
  /**
   * Writes the whole record (by id); false when it does not exist. It overwrites every column with
   * what the caller read, so under concurrency it can erase a value written meanwhile (an
   * escalation, a newer `updatedAt`): core uses `touch` and `escalate` instead. Only for tests and
   * tools that serialise their writes to the conversation themselves.
   */
  update(conversation: ConversationRecord): Promise<boolean>;
  /**
   * The contact's conversation on `channel` that is not closed (`open` or `pending`), newest
   * first, or null. On `whatsapp` there is at most one: a unique rule refuses a second with
   * `conflict` (insert, or an update that reopens one).
   */
  findActive(workspaceId: string, contactId: string, channel: string): Promise<ConversationRecord | null>;
  /**
   * Sets only `updatedAt` (a new message arrived) of a conversation that is not closed; false when
   * it does not exist or is closed. The status is judged on the row's latest version (on
   * PostgreSQL an `UPDATE … AND status <> 'closed'` re-checks it after a concurrent writer
   * commits), so a message recorded in the same transaction never lands in a conversation closed
   * meanwhile.
   */
  touch(workspaceId: string, id: string, updatedAt: string): Promise<boolean>;
  /**
   * Marks the conversation `pending` with `escalatedAt = at` only if it was never escalated, in one
   * conditional write, so of two concurrent escalations exactly one wins. Returns the escalated
   * record, or null when it does not exist or was already escalated (read it to tell which).
   */
  escalate(workspaceId: string, id: string, at: string): Promise<ConversationRecord | null>;
}

export interface MessageRepository extends WhatsAppMessageMethods {
  /** Fails with `conflict` when the workspace has a message with the same `providerMessageId`. */
  insert(message: MessageRecord): Promise<void>;
  /** Most recent first, each with its `delivery` state when the provider reported one. */
  listByConversation(conversationId: string, options?: { limit?: number }): Promise<MessageRecord[]>;
  /** Removes a message recorded before a send the provider then refused; false when it does not exist. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}
