import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { LogFields, Logger } from "@vitrina/core";
import { migrate, migrations } from "@vitrina/adapter-postgres";
import { DATABASE_URL, backends, freshPGlite, uniqueSchema } from "./support.js";

function recordingLogger() {
  const entries: Array<{ level: string; fields: LogFields; message: string }> = [];
  const at = (level: string) =>
    ((fields: LogFields, message: string) => void entries.push({ level, fields, message })) as Logger["info"];
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  return { logger, entries };
}

describe.each(backends)("migration logs on %s", (backend) => {
  it("logs each migration it applies at info, and says when there was nothing to do", async () => {
    const db = backend === "PGlite" ? await freshPGlite() : new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
    const schema = uniqueSchema();
    try {
      const first = recordingLogger();
      await migrate(db, { schema, logger: first.logger });
      expect(first.entries).toEqual(
        migrations.map((m) => ({
          level: "info",
          fields: { schema, version: m.version, name: m.name },
          message: "migration applied",
        })),
      );
      const again = recordingLogger();
      await migrate(db, { schema, logger: again.logger });
      expect(again.entries).toEqual([
        { level: "debug", fields: { schema }, message: "schema up to date; no migration applied" },
      ]);
    } finally {
      if (db instanceof PGlite) await db.close();
      else {
        await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await db.end();
      }
    }
  });
});

describe("migration logs", () => {
  it("logs a failing migration at error before rethrowing", async () => {
    // A PGlite-shaped driver whose every statement fails, as a database refusing DDL would.
    const refuse = async () => Promise.reject(new Error("permission denied for database"));
    const failing = {
      query: refuse,
      transaction: <T>(work: (tx: { query: typeof refuse }) => Promise<T>) => work({ query: refuse }),
    };
    const { logger, entries } = recordingLogger();
    await expect(migrate(failing, { schema: uniqueSchema(), logger })).rejects.toThrow();
    expect(entries).toEqual([
      expect.objectContaining({
        level: "error",
        message: "migration failed; the schema was left as it was",
        fields: expect.objectContaining({ cause: expect.stringContaining("permission denied") }),
      }),
    ]);
  });
});
