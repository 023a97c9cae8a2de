import { VitrinaError } from "@vitrina/core";

/** What sits between Vitrina and PostgreSQL on `DATABASE_URL`. */
export type DatabasePooler = "transaction" | "session" | null;

export interface DatabaseUrls {
  /** `DATABASE_URL` without the `pgbouncer` parameter, which is ours and not pg's. */
  url: string;
  pooler: DatabasePooler;
  /** `DATABASE_DIRECT_URL`: PostgreSQL itself, for migrations and LISTEN. */
  directUrl: string | undefined;
}

const POOLERS: Record<string, DatabasePooler> = { transaction: "transaction", session: "session", none: null };

function refuse(field: string, reason: string): never {
  throw new VitrinaError("invalid_argument", `${field} ${reason}`, { reasons: [{ field, reason }] });
}

/**
 * Reads which pooler `DATABASE_URL` goes through. It is said, not detected: a pooler is
 * transparent on the wire (`SHOW pool_mode` answers only on PgBouncer's admin console, and managed
 * poolers differ), and a probe such as preparing a statement and looking for it again passes by luck
 * whenever the pooler happens to hand back the same server connection. So, as Prisma reads it,
 * `?pgbouncer=true` on the URL means a transaction pooler; `VITRINA_DB_POOLER` (`transaction`,
 * `session` or `none`) says the same for a URL a platform sets and you can't edit. Both given must agree.
 */
export function databaseUrlsFromEnv(env: Record<string, string | undefined>, databaseUrl: string): DatabaseUrls {
  let url = databaseUrl;
  let fromUrl: DatabasePooler | undefined;
  const match = /[?&]pgbouncer=([^&#]*)/.exec(databaseUrl);
  if (match) {
    const value = decodeURIComponent(match[1]!);
    if (value === "true" || value === "1") fromUrl = "transaction";
    else if (value === "false" || value === "0") fromUrl = null;
    else refuse("DATABASE_URL", `has pgbouncer=${value}: expected pgbouncer=true or pgbouncer=false`);
    // pg would ignore it, but the URL is pg's: hand it over as the server knows it.
    const parsed = new URL(databaseUrl);
    parsed.searchParams.delete("pgbouncer");
    url = parsed.toString();
  }
  let fromEnv: DatabasePooler | undefined;
  const named = env.VITRINA_DB_POOLER?.trim();
  if (named) {
    if (!(named in POOLERS)) refuse("VITRINA_DB_POOLER", `must be transaction, session or none, got "${named}"`);
    fromEnv = POOLERS[named]!;
  }
  if (fromUrl !== undefined && fromEnv !== undefined && fromUrl !== fromEnv)
    refuse(
      "VITRINA_DB_POOLER",
      `says ${named} but DATABASE_URL says pgbouncer=${match![1]}: give one, or make them agree`,
    );
  return { url, pooler: fromEnv ?? fromUrl ?? null, directUrl: env.DATABASE_DIRECT_URL || undefined };
}
