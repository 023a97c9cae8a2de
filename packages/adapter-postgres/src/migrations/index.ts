import { defaultLogger, describeError, type Logger } from "@vitrina/core";
import { runTransaction, type PostgresDriver } from "../driver.js";
import { migration001 } from "./001-leads.js";
import { migration002 } from "./002-capabilities.js";
import { migration003 } from "./003-webhooks.js";
import { migration004 } from "./004-oauth.js";
import { migration005 } from "./005-lead-references.js";
import { migration006 } from "./006-one-welcome-per-person.js";
import { migration007 } from "./007-oauth-lifecycle.js";
import { migration008 } from "./008-retention-and-send-lease.js";
import { migration009 } from "./009-admin-api.js";
import { migration010 } from "./010-attempt-response-prefix.js";
import { migration011 } from "./011-claim-without-index-change.js";
import { migration012 } from "./012-resend-retry-cycle.js";
import { migration013 } from "./013-whatsapp-channel.js";
import { migration014 } from "./014-console-session-epoch.js";
import { migration015 } from "./015-personal-data.js";
import { migration016 } from "./016-webhook-signing.js";
import { migration017 } from "./017-lead-operations.js";
import { migration018 } from "./018-endpoint-health.js";
import { migration019 } from "./019-claims-per-subscription.js";

export interface Migration {
  version: number;
  name: string;
  /** Single statements (PGlite's `query` runs one statement at a time), for the quoted schema. */
  statements: (quotedSchema: string) => string[];
}

/** Every migration, in order. Add new ones at the end with the next version; never edit an applied one. */
export const migrations: Migration[] = [
  { version: 1, name: "leads", statements: migration001 },
  { version: 2, name: "capabilities", statements: migration002 },
  { version: 3, name: "webhooks", statements: migration003 },
  { version: 4, name: "oauth", statements: migration004 },
  { version: 5, name: "lead-references", statements: migration005 },
  { version: 6, name: "one-welcome-per-person", statements: migration006 },
  { version: 7, name: "oauth-lifecycle", statements: migration007 },
  { version: 8, name: "retention-and-send-lease", statements: migration008 },
  { version: 9, name: "admin-api", statements: migration009 },
  { version: 10, name: "attempt-response-prefix", statements: migration010 },
  { version: 11, name: "claim-without-index-change", statements: migration011 },
  { version: 12, name: "resend-retry-cycle", statements: migration012 },
  { version: 13, name: "whatsapp-channel", statements: migration013 },
  { version: 14, name: "console-session-epoch", statements: migration014 },
  { version: 15, name: "personal-data", statements: migration015 },
  { version: 16, name: "webhook-signing", statements: migration016 },
  { version: 17, name: "lead-operations", statements: migration017 },
  { version: 18, name: "endpoint-health", statements: migration018 },
  { version: 19, name: "claims-per-subscription", statements: migration019 },
];

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Applies pending migrations in one transaction under a transaction-scoped advisory lock, so
 * instances starting together queue up instead of racing, and a failing migration leaves the
 * schema exactly as it was. Returns the versions it applied (empty when up to date), and logs
 * each at info level on `logger` (default: Vitrina's, which shows warnings and errors only).
 *
 * The transaction runs without a statement timeout, whatever the pool's: that timeout is sized for
 * requests, while a migration may legitimately take longer (an index over a large table), and so
 * may the wait of an instance queued behind it on the lock. Cancelling either would fail the start
 * of every instance but the first.
 */
export async function migrate(
  db: PostgresDriver,
  options: { schema?: string; logger?: Logger } = {},
): Promise<number[]> {
  const schema = options.schema ?? "vitrina";
  const logger = options.logger ?? defaultLogger;
  const s = quoteIdent(schema);
  const applied = await runTransaction(db, undefined, async (q) => {
    await q.query("SET LOCAL statement_timeout = 0");
    await q.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`vitrina:migrate:${schema}`]);
    await q.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await q.query(
      `CREATE TABLE IF NOT EXISTS ${s}.vitrina_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const applied = new Set(
      (await q.query(`SELECT version FROM ${s}.vitrina_migrations`)).rows.map((r) => Number(r.version)),
    );
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements(s)) await q.query(statement);
      await q.query(`INSERT INTO ${s}.vitrina_migrations (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      done.push(migration.version);
    }
    return done;
  }).catch((error: unknown) => {
    logger.error({ schema, cause: describeError(error) }, "migration failed; the schema was left as it was");
    throw error;
  });
  for (const version of applied)
    logger.info({ schema, version, name: migrations.find((m) => m.version === version)?.name }, "migration applied");
  if (applied.length === 0) logger.debug({ schema }, "schema up to date; no migration applied");
  return applied;
}
