import { Writable } from "node:stream";
import type { CliSetup } from "../../src/cli/context.js";
import { main } from "../../src/cli/main.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it, as text. */
export function textSink(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * Runs `vitrina <args>` in this process through the CLI's `main`, in `cwd` (where it looks for
 * vitrina.config.* and the default .vitrina/), with `env` over this process's environment (as a
 * child would inherit it); returns its exit code and what it printed. `signal` stops `vitrina worker`.
 */
export async function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<CliRun> {
  const stdout = textSink();
  const stderr = textSink();
  const code = await main(args, {
    env: { ...process.env, VITRINA_DATA_DIR: "", VITRINA_STORAGE: "", ...options.env },
    stdout: stdout.stream,
    stderr: stderr.stream,
    cwd: options.cwd,
    signal: options.signal,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * What `main` hands a command, for tests that open the CLI's context themselves: no config file,
 * in this folder, `env` as given (default: this process's), output into a sink read by `stdout()`.
 */
export function cliSetup(options: Partial<Omit<CliSetup, "out">> & { json?: boolean } = {}) {
  const stdout = textSink();
  const setup: CliSetup = {
    config: {},
    configFile: null,
    cwd: process.cwd(),
    env: process.env,
    ...options,
    out: { json: options.json ?? true, stdout: stdout.stream, stderr: textSink().stream },
  };
  return { setup, stdout: stdout.text };
}
