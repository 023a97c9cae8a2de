import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceBundle } from "./support/run-cli.js";

const fixture = fileURLToPath(new URL("./fixtures/slow-shutdown.ts", import.meta.url));

/** Starts the fixture in `mode`, sends `signals` 50 ms apart once it is ready; resolves how it ended. */
async function stopWith(mode: string, signals: NodeJS.Signals[]) {
  const child = spawn(process.execPath, [await sourceBundle(fixture), mode], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  const ended = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  for (let i = 0; i < 200 && !stdout.includes("ready"); i++) await new Promise((r) => setTimeout(r, 50));
  expect(stdout, stderr).toContain("ready");
  for (const signal of signals) {
    child.kill(signal);
    await new Promise((r) => setTimeout(r, 50));
  }
  const [code, signal] = await ended;
  return { code, signal, stdout, stderr };
}

describe.each(["serve-vitrina", "worker", "shutdown-on-signal"])("stopping by signal (%s)", (mode) => {
  // One stop often brings two SIGTERMs: one to the process group, one passed on by pnpm or a supervisor.
  it("finishes the shutdown when SIGTERM comes twice", async () => {
    const ended = await stopWith(mode, ["SIGTERM", "SIGTERM"]);
    expect(ended, ended.stderr).toMatchObject({ code: 0, signal: null });
    expect(ended.stdout).toContain("shutdown complete");
  });

  it("ends at once on a second Ctrl-C (SIGINT), the usual force-quit", async () => {
    const ended = await stopWith(mode, ["SIGINT", "SIGINT"]);
    expect(ended.signal).toBe("SIGINT");
    expect(ended.stdout).not.toContain("shutdown complete");
  });
});
