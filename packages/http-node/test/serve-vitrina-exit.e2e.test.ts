import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { sourceBundle } from "./support/run-cli.js";

const fixture = fileURLToPath(new URL("./fixtures/serve-from-env.ts", import.meta.url));
const DATABASE_URL = process.env.DATABASE_URL;

/** Starts the fixture with `env`, waits for "ready", sends SIGTERM, and resolves how it ended. */
async function startAndStop(env: Record<string, string>) {
  const { DATABASE_URL: _omit, ...inherited } = process.env;
  const child = spawn(process.execPath, [await sourceBundle(fixture)], {
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  const ended = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  for (let i = 0; i < 600 && !stdout.includes("ready") && child.exitCode === null; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(stdout, stderr).toContain("ready");
  child.kill("SIGTERM");
  const [code, signal] = await ended;
  return { code, signal, stderr };
}

describe("serveVitrina without onShutdown, stopped by SIGTERM", () => {
  it("exits by itself on PGlite and releases the data directory, so the next start opens it", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "vitrina-exit-"));
    try {
      const first = await startAndStop({ VITRINA_DATA_DIR: dataDir });
      expect(first, first.stderr).toMatchObject({ code: 0, signal: null });
      const second = await startAndStop({ VITRINA_DATA_DIR: dataDir });
      expect(second, second.stderr).toMatchObject({ code: 0, signal: null });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  describe.runIf(DATABASE_URL)("on PostgreSQL", () => {
    const schema = `exit_${process.pid}_${Date.now()}`;
    afterAll(async () => {
      const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    });
    it("exits by itself (the pool is closed)", async () => {
      const ended = await startAndStop({ DATABASE_URL: DATABASE_URL!, VITRINA_DB_SCHEMA: schema });
      expect(ended, ended.stderr).toMatchObject({ code: 0, signal: null });
    }, 60_000);
  });
  if (!DATABASE_URL) console.info("serve-vitrina-exit: the PostgreSQL case is skipped, it needs DATABASE_URL");
});
