import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { storageFromEnv } from "../src/config/storage-from-env.js";
import { recordingLogger } from "./support/recording-logger.js";
import { sampleLead, startLeadHarness } from "./support/lead-harness.js";

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.info("storage-dropped-connections: skipped, it needs PostgreSQL (set DATABASE_URL)");

/** `url` with `application_name` set, so the test can find (and terminate) this process's own connections. */
function taggedUrl(url: string, applicationName: string): string {
  const tagged = new URL(url);
  tagged.searchParams.set("application_name", applicationName);
  return tagged.toString();
}

describe.runIf(DATABASE_URL)("PostgreSQL dropping pooled connections under a live server and worker", () => {
  const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  afterAll(() => admin.end());

  it("answers the next requests after the server terminates every idle connection, logging it at warn without the URL", async () => {
    const applicationName = `vitrina-drop-${process.pid}-${Date.now()}`;
    const schema = `drop_${process.pid}_${Date.now()}`;
    const { logger, entries } = recordingLogger();
    const configured = await storageFromEnv({
      env: { DATABASE_URL: taggedUrl(DATABASE_URL!, applicationName), VITRINA_DB_SCHEMA: schema },
      logger,
    });
    const h = await startLeadHarness({ storage: configured.storage });
    const worker = h.vitrina.outbox.startWorker();
    try {
      // Several leads at once leave several idle clients in the pool (and the worker holds LISTEN).
      const before = await Promise.all(Array.from({ length: 6 }, () => h.send(sampleLead())));
      expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const { rows } = await admin.query(
        `SELECT pid, pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1`,
        [applicationName],
      );
      expect(rows.length).toBeGreaterThan(1);
      // The pool hears of each drop on its own, and a request that takes a client whose drop it
      // hasn't read yet may answer 503 (the warning says so). So wait (no timing asserted) until
      // every terminated backend is gone, then for the first report, then a moment more for the
      // pool to read the rest: waiting for the first report alone let one request of six get a
      // dropped client on a loaded CI machine.
      const pids = rows.map((row: { pid: number }) => row.pid);
      const alive = async () =>
        Number((await admin.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE pid = ANY($1)`, [pids])).rows[0].n);
      for (let i = 0; i < 200 && (await alive()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      for (let i = 0; i < 200 && !entries.some((e) => e.message.startsWith("PostgreSQL dropped")); i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const after = await Promise.all(Array.from({ length: 6 }, () => h.send(sampleLead())));
      expect(after.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const warned = entries.filter((e) => e.level === "warn" && e.message.startsWith("PostgreSQL dropped"));
      expect(warned.length).toBeGreaterThanOrEqual(1);
      expect(warned[0]!.fields).toMatchObject({ code: "57P01" });
      expect(JSON.stringify(entries)).not.toContain("postgres://");
      expect(await h.storage.leads.countByWorkspace(h.workspace.id)).toBe(12);
    } finally {
      await worker.stop();
      await h.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
});
