import type { VitrinaConfig } from "../../src/config/config-file.js";
import type { Flags } from "../../src/cli/command.js";
import { commands } from "../../src/cli/commands.js";
import { openCliContext, type CliContext } from "../../src/cli/context.js";
import { textSink } from "./cli-main.js";

/**
 * Runs one `vitrina` command's function in this process (no bundle, no child): the command line
 * already parsed into `positionals` and `flags`, on in-memory storage unless the config brings its
 * own. What the command prints to stdout comes back as text, and, with `json`, parsed.
 * `prepare` lets a test seed the context's Vitrina before the command runs.
 */
export async function runCommandInProcess(
  name: string,
  positionals: string[],
  flags: Flags,
  options: {
    config?: VitrinaConfig;
    env?: Record<string, string | undefined>;
    prepare?: (ctx: CliContext) => Promise<Flags | void>;
  } = {},
): Promise<{ stdout: string; json: () => any; ctx: CliContext }> {
  const command = commands.find((c) => c.name === name);
  if (command === undefined) throw new Error(`no command ${name}`);
  const stdout = textSink();
  const env = { VITRINA_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"), ...options.env };
  const ctx = await openCliContext({
    config: options.config ?? {},
    configFile: null,
    cwd: process.cwd(),
    memory: options.config?.storage === undefined,
    out: { json: flags.json === true, stdout: stdout.stream, stderr: textSink().stream },
    env,
  });
  const extra = (await options.prepare?.(ctx)) ?? {};
  const action = command.prepare!(positionals, { ...flags, ...extra }, env);
  await action(ctx);
  const text = stdout.text().replace(/\n$/, "");
  return { stdout: text, json: () => JSON.parse(text), ctx };
}
