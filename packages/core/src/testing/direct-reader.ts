import type {
  ConnectorRecord,
  ContactRecord,
  ConversationRecord,
  MemberRecord,
  WorkspaceRecord,
} from "../ports/records.js";

/**
 * Reads stored records back without going through the adapter's repositories (raw SQL, the
 * database's own client), with a mapping written separately from the adapter's. The contract
 * writes through the adapter and reads through this, so a mapping bug that is symmetric (written
 * wrong, read back "right") cannot pass. As Auth.js's adapter tests do; optional.
 */
export interface DirectReader {
  workspace(id: string): Promise<WorkspaceRecord | null>;
  member(workspaceId: string, userId: string): Promise<MemberRecord | null>;
  connector(id: string): Promise<ConnectorRecord | null>;
  contact(id: string): Promise<ContactRecord | null>;
  conversation(id: string): Promise<ConversationRecord | null>;
}
