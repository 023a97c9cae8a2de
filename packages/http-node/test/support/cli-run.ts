import { vi } from "vitest";
import type { CliCommand } from "../../src/cli/command.js";
import { openCliContext } from "../../src/cli/context.js";

/** Runs one command in a fresh context (as a separate `vitrina …` invocation) and returns what it printed to stdout as JSON. */
export async function runCliJson(command: CliCommand, args: string[], flags: Record<string, string>) {
  const printed: string[] = [];
  vi.spyOn(console, "log").mockImplementation((line: string) => void printed.push(line));
  vi.spyOn(console, "error").mockImplementation(() => {});
  const action = command.prepare!(args, flags);
  const ctx = await openCliContext({ config: {}, configFile: null, out: { json: true } });
  try {
    await action(ctx);
  } finally {
    await ctx.vitrina.close();
    vi.restoreAllMocks();
  }
  return JSON.parse(printed.join("\n"));
}
