import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const require = createRequire(import.meta.url);
const vitePath = createRequire(require.resolve("vitest/package.json")).resolve("vite");
const runSource = join(dirname(fileURLToPath(import.meta.url)), "run-source.mjs");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the `vitrina` CLI from the sources in a separate process, in `cwd` (where it looks for
 * vitrina.config.*), with `env` over this process's environment. PGlite data lands in `cwd/.vitrina`
 * unless `env` says otherwise.
 */
export function runCli(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [runSource, vitePath, root, "packages/http-node/src/cli.ts", ...args],
      { cwd: options.cwd, env: { ...process.env, VITRINA_DATA_DIR: "", VITRINA_STORAGE: "", ...options.env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The same invocation as a long-running child (e.g. `vitrina worker`), for tests that stop it. */
export function cliCommand(args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [runSource, vitePath, root, "packages/http-node/src/cli.ts", ...args] };
}
