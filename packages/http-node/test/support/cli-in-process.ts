import { vi } from "vitest";
import type { VitrinaConfig } from "../../src/config-file.js";
import type { Flags } from "../../src/cli/command.js";
import { commands } from "../../src/cli/commands.js";
import { openCliContext, type CliContext } from "../../src/cli/context.js";

/**
 * Runs one `vitrina` command's function in this process (no bundle, no child): the command line
 * already parsed into `positionals` and `flags`, on in-memory storage unless the config brings its
 * own. What the command prints to stdout (`console.log`) comes back as text, and, with `json`, parsed.
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
  const ctx = await openCliContext({
    config: options.config ?? {},
    configFile: null,
    memory: options.config?.storage === undefined,
    out: { json: flags.json === true },
    env: { VITRINA_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"), ...options.env },
  });
  const lines: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const extra = (await options.prepare?.(ctx)) ?? {};
    const action = command.prepare!(positionals, { ...flags, ...extra });
    await action(ctx);
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
  const stdout = lines.join("\n");
  return { stdout, json: () => JSON.parse(stdout), ctx };
}
