import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const vitePath = createRequire(require.resolve("vitest/package.json")).resolve("vite");
const root = fileURLToPath(new URL("../../../", import.meta.url));
const runSource = join(root, "packages/http-node/test/support/run-source.mjs");

let dir = "";
afterEach(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
});

describe("shutdownOnSignal: my Express server + Vitrina's worker in one real process", () => {
  it("on SIGTERM drains in-flight requests (Vitrina still answers them), stops the worker, closes storage and exits 0", async () => {
    dir = await mkdtemp(join(tmpdir(), "vitrina-shutdown-"));
    const child = spawn(
      process.execPath,
      [runSource, vitePath, root, "examples/frameworks/test/support/shutdown-child.mjs"],
      {
        env: { ...process.env, VITRINA_DATA_DIR: dir, DATABASE_URL: "", VITRINA_STORAGE: "", VITRINA_SECRET_KEY: "" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    let output = "";
    const waitFor = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const check = () => output.includes(text) && resolve(output);
        child.stdout!.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          check();
        });
        child.stderr!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
        void exited.then((code) => reject(new Error(`child exited with ${code} before "${text}": ${output}`)));
        check();
      });

    const url = /listening on (\S+)/.exec(await waitFor("listening on"))![1]!;
    expect((await fetch(`${url}/vitrina/v1/capabilities`)).status).toBe(200);
    expect(existsSync(join(dir, "vitrina.lock"))).toBe(true);

    const inFlight = fetch(`${url}/api/in-flight`);
    await waitFor("in-flight request waiting for SIGTERM");
    child.kill("SIGTERM");

    const answered = await inFlight;
    expect(answered.status).toBe(200);
    // Vitrina was still open for the request that was in flight when the signal came.
    expect(await answered.json()).toEqual({ vitrinaStatus: 200 });
    expect(await exited).toBe(0);
    expect(output).toContain("worker stopped, closing Vitrina");
    // The PGlite lock is released by storage.close(): the storage was closed, not abandoned.
    expect(existsSync(join(dir, "vitrina.lock"))).toBe(false);
    // A limit, not a timing assertion: Vite and PGlite start slowly in a child on a busy machine.
  }, 180_000);
});
