import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliCommand, spawnCli } from "./support/run-cli.js";
import { RECEIVER_SECRET, startReceiver, verifyWithNodeCrypto } from "./support/webhook-harness.js";
import { APP_SECRET_KEY, appQueuesOneEvent } from "./support/worker-app.js";

// The two things only a real `vitrina` process shows: the exit code it ends with, and a worker
// stopped by SIGTERM. Every other CLI test runs the CLI's `main` in process (support/cli-main.ts).
async function inTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "vitrina-cli-e2e-"));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("the vitrina process", () => {
  it(
    "prints its version and help, and exits 2 on a usage error",
    () =>
      inTempDir(async (cwd) => {
        const { version } = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
        const env = { DATABASE_URL: "", VITRINA_DATA_DIR: join(cwd, ".vitrina") };
        const [printed, help, twice] = await Promise.all([
          spawnCli(["--version"], { cwd, env }),
          spawnCli(["--help"], { cwd, env }),
          spawnCli(["workspaces", "list", "--user", "ana", "--user", "bob"], { cwd, env }),
        ]);
        expect(printed).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" });
        expect(help.code).toBe(0);
        expect(help.stdout).toContain("usage: vitrina <command> [options]");
        expect(twice).toMatchObject({ code: 2, stdout: "" });
        expect(twice.stderr).toContain("vitrina: invalid_argument: --user is given more than once");
      }),
    120_000,
  );

  it(
    "`vitrina worker` delivers with the app's config and exits 0 on SIGTERM",
    () =>
      inTempDir(async (cwd) => {
        const env = { DATABASE_URL: "", VITRINA_DATA_DIR: join(cwd, ".vitrina"), VITRINA_SECRET_KEY: "" };
        const receiver = await startReceiver();
        try {
          await appQueuesOneEvent(env, undefined, receiver.url);
          await writeFile(
            join(cwd, "vitrina.config.mjs"),
            `export default { headerPrefix: "Acme", secretBox: ${JSON.stringify(APP_SECRET_KEY)}, webhooks: { allowInsecureLoopback: true } };\n`,
          );
          const { command, args } = await cliCommand(["worker"]);
          const worker = spawn(command, args, {
            cwd,
            env: { ...process.env, ...env },
            stdio: ["ignore", "pipe", "pipe"],
          });
          let output = "";
          worker.stdout.on("data", (c: Buffer) => void (output += c.toString()));
          worker.stderr.on("data", (c: Buffer) => void (output += c.toString()));
          const exited = new Promise<number | null>((resolve) => worker.once("exit", resolve));
          try {
            const deadline = Date.now() + 90_000;
            while (receiver.received.length === 0 && worker.exitCode === null && Date.now() < deadline)
              await new Promise((r) => setTimeout(r, 50));
          } finally {
            worker.kill("SIGTERM");
          }
          expect(await exited, output).toBe(0);
          expect(output).toContain("signing with Acme-Signature");
          expect(receiver.received, output).toHaveLength(1);
          const [delivery] = receiver.received;
          expect(
            verifyWithNodeCrypto(delivery!.headers["acme-signature"] as string, delivery!.body, RECEIVER_SECRET),
          ).toBe(true);
        } finally {
          await receiver.close();
        }
      }),
    240_000,
  );
});
