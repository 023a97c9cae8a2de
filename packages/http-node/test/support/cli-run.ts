import type { CliCommand } from "../../src/cli/command.js";
import { openCliContext } from "../../src/cli/context.js";
import { cliSetup } from "./cli-main.js";

/** Runs one command in a fresh context (as a separate `vitrina …` invocation) and returns what it printed to stdout as JSON. */
export async function runCliJson(command: CliCommand, args: string[], flags: Record<string, string>) {
  // The environment as the process has it now (useTempPgliteDataDir sets it).
  const { setup, stdout } = cliSetup({ env: { ...process.env } });
  const action = command.prepare!(args, flags, setup.env);
  const ctx = await openCliContext(setup);
  try {
    await action(ctx);
  } finally {
    await ctx.vitrina.close();
  }
  return JSON.parse(stdout());
}
