import type {
  ConnectorRecord,
  ContactRecord,
  ConversationRecord,
  MemberRecord,
  Vertical,
  WorkspaceRecord,
  WorkspaceRole,
} from "@vitrina/core";
import type { DirectReader } from "@vitrina/core/testing";

/** What both PGlite and pg.Pool offer. */
interface Queryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

type Row = Record<string, unknown>;

// Written apart from src/repositories on purpose: the contract writes through the adapter and
// reads through this raw SQL, so a column the adapter maps wrongly both ways can't pass.
const at = (v: unknown): string => new Date(v as string | Date).toISOString();
const atOrNull = (v: unknown): string | null => (v === null ? null : at(v));
const jsonOf = <T>(v: unknown): T => (typeof v === "string" ? (JSON.parse(v) as T) : (v as T));
/** The columns every workspace-owned table has. */
const owned = (r: Row) => ({ id: r.id as string, workspaceId: r.workspace_id as string });

/** Reads the adapter's tables in `schema` with plain SELECTs and maps the columns by hand. */
export function postgresDirectReader(db: Queryable, schema: string): DirectReader {
  /** The one row of `table` matching `where`, mapped by `map`, or null. */
  const one = async <T>(table: string, where: string, params: unknown[], map: (r: Row) => T): Promise<T | null> => {
    const { rows } = await db.query(`SELECT * FROM "${schema}".${table} WHERE ${where}`, params);
    const row = rows[0] as Row | undefined;
    return row === undefined ? null : map(row);
  };
  return {
    workspace: (id) =>
      one<WorkspaceRecord>("workspaces", "id = $1", [id], (r) => ({
        id: r.id as string,
        name: r.name as string,
        vertical: r.vertical as Vertical,
        currency: r.currency as string,
        createdAt: at(r.created_at),
      })),
    member: (workspaceId, userId) =>
      one<MemberRecord>("workspace_members", "workspace_id = $1 AND user_id = $2", [workspaceId, userId], (r) => ({
        workspaceId: r.workspace_id as string,
        userId: r.user_id as string,
        role: r.role as WorkspaceRole,
      })),
    connector: (id) =>
      one<ConnectorRecord>("connectors", "id = $1", [id], (r) => ({
        ...owned(r),
        name: r.name as string,
        systemId: r.system_id as string,
        sealedSecret: r.sealed_secret as string,
        secretVersion: r.secret_version as number,
        createdAt: at(r.created_at),
        rotatedAt: atOrNull(r.rotated_at),
      })),
    contact: (id) =>
      one<ContactRecord>("contacts", "id = $1", [id], (r) => ({
        ...owned(r),
        name: r.name as string | null,
        phoneE164: r.phone_e164 as string | null,
        email: r.email as string | null,
        tags: jsonOf<string[]>(r.tags),
        score: r.score as number | null,
        ltv: r.ltv as number | null,
        whatsappConsent: r.whatsapp_consent === null ? null : jsonOf(r.whatsapp_consent),
        whatsappOptedOutAt: atOrNull(r.whatsapp_opted_out_at),
        // Absent, not null, when the contact is not a suspected duplicate (as the record type says).
        ...(r.possible_duplicate_of === null ? {} : { possibleDuplicateOf: r.possible_duplicate_of as string }),
        createdAt: at(r.created_at),
        updatedAt: at(r.updated_at),
      })),
    conversation: (id) =>
      one<ConversationRecord>("conversations", "id = $1", [id], (r) => ({
        ...owned(r),
        contactId: r.contact_id as string,
        channel: r.channel as string,
        status: r.status as ConversationRecord["status"],
        escalatedAt: atOrNull(r.escalated_at),
        createdAt: at(r.created_at),
        updatedAt: at(r.updated_at),
      })),
  };
}
