import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends, DATABASE_URL, uniqueSchema } from "../../adapter-postgres/test/support.js";
import { runCli } from "./support/cli-main.js";
import { RECEIVER_SECRET, startReceiver, verifyWithNodeCrypto } from "./support/webhook-harness.js";
import { APP_SECRET_KEY as SECRET_KEY, appQueuesOneEvent } from "./support/worker-app.js";

// Item 6 of issue 13: an app with headerPrefix "Acme" and a separate `vitrina worker` delivered
// `Vitrina-Signature`, because the CLI built its own Vitrina with defaults. The CLI now loads the
// app's vitrina.config.*: prefix, storage schema, webhook options and secret key.
let cwd: string;
const closers: Array<() => Promise<unknown>> = [];
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "vitrina-cli-config-"));
});
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
  await rm(cwd, { recursive: true, force: true });
});

function envFor(backend: "PGlite" | "PostgreSQL"): Record<string, string> {
  return {
    DATABASE_URL: backend === "PostgreSQL" ? DATABASE_URL! : "",
    VITRINA_DATA_DIR: join(cwd, ".vitrina"),
    VITRINA_SECRET_KEY: "",
    VITRINA_ALLOW_INSECURE_LOOPBACK: "",
  };
}

describe.each(backends)("vitrina worker with the app's vitrina.config.mjs (%s)", (backend) => {
  it("signs with the app's header prefix (Acme-Signature), in the app's schema, with the app's key", async () => {
    const schema = uniqueSchema();
    if (backend === "PostgreSQL") {
      closers.push(async () => {
        const pool = new pg.Pool({ connectionString: DATABASE_URL });
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      });
    }
    const receiver = await startReceiver();
    closers.push(receiver.close);
    await appQueuesOneEvent(envFor(backend), schema, receiver.url);
    // The function form, as an app that reads its environment would write it.
    await writeFile(
      join(cwd, "vitrina.config.mjs"),
      `export default async () => ({ headerPrefix: "Acme", secretBox: ${JSON.stringify(SECRET_KEY)}, database: { schema: ${JSON.stringify(schema)} }, webhooks: { allowInsecureLoopback: true } });\n`,
    );

    // `vitrina worker` in process; aborting its signal stops it as SIGTERM stops the process
    // (cli.e2e.test.ts sends the real signal to a real `vitrina worker`).
    const stop = new AbortController();
    let ended = false;
    const worker = runCli(["worker"], { cwd, env: envFor(backend), signal: stop.signal }).finally(() => (ended = true));
    try {
      const deadline = Date.now() + 90_000;
      while (receiver.received.length === 0 && !ended && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      stop.abort();
    }
    const run = await worker;
    const output = run.stdout + run.stderr;
    expect(run.code, output).toBe(0);
    expect(output).toContain("signing with Acme-Signature");
    expect(receiver.received, output).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(delivery!.headers["vitrina-signature"]).toBeUndefined();
    expect(delivery!.headers["vitrina-event-id"]).toBeUndefined();
    expect(delivery!.headers["acme-event-id"]).toEqual(expect.any(String));
    expect(verifyWithNodeCrypto(delivery!.headers["acme-signature"] as string, delivery!.body, RECEIVER_SECRET)).toBe(
      true,
    );

    // `migrate` reads the same config: the app's schema.
    const migrated = await runCli(["migrate"], { cwd, env: envFor(backend) });
    expect(migrated.stdout, migrated.stderr).toContain(`(schema ${schema})`);
    // `--json` prints JSON and only JSON on stdout, as every other command does.
    const json = await runCli(["migrate", "--json"], { cwd, env: envFor(backend) });
    expect(JSON.parse(json.stdout), json.stderr).toEqual({
      migrated: true,
      storage: expect.stringContaining(`(schema ${schema})`),
    });
  }, 240_000);
});

describe("config file errors", () => {
  it("--config naming a missing file is a usage error; a config exporting nothing useful says what to export", async () => {
    const missing = await runCli(["migrate", "--config", "nope.mjs"], { cwd, env: { VITRINA_STORAGE: "memory" } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("vitrina: invalid_argument: --config nope.mjs: no such file");
    await writeFile(join(cwd, "vitrina.config.mjs"), "export const unrelated = 1;\n");
    const empty = await runCli(["migrate", "--memory"], { cwd });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("must export default an options object");
  }, 120_000);

  it("a config function that throws, or a config that isn't an options object, is named in one line", async () => {
    // Each config in its own folder: this process imports a config file once per path.
    let file = "";
    let cases = 0;
    const run = async (source: string) => {
      const dir = join(cwd, `case-${++cases}`);
      await mkdir(dir);
      file = join(dir, "vitrina.config.mjs");
      await writeFile(file, source);
      return runCli(["workspaces", "list", "--user", "ana", "--memory"], { cwd: dir });
    };
    const thrown = await run('export default () => { throw new Error("ACME_KEY is not set"); };\n');
    expect(thrown.code).toBe(1);
    expect(thrown.stderr).toBe(
      `vitrina: invalid_argument: ${file}: its exported function threw: ACME_KEY is not set\n`,
    );
    const thrownNull = await run("export default async () => { throw null; };\n");
    expect(thrownNull.stderr).toBe(`vitrina: invalid_argument: ${file}: its exported function threw: null\n`);
    const list = await run("export default [{ headerPrefix: 'Acme' }];\n");
    expect(list).toMatchObject({ code: 1, stdout: "" });
    expect(list.stderr).toContain(`${file} must export default an options object`);
  }, 120_000);
});
