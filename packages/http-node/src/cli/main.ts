// `vitrina`: console operations against the app's configuration (vitrina.config.{js,mjs,ts} or
// --config) and its storage (DATABASE_URL → PostgreSQL; otherwise embedded PGlite in
// VITRINA_DATA_DIR, default .vitrina/; --memory for in-memory).
import { createRequire } from "node:module";
import type { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { isVitrinaError, type VitrinaError } from "@vitrina/core";
import { findConfigFile, loadConfigFile } from "../config/config-file.js";
import { UsageError, type CliCommand, type FlagOptions } from "./command.js";
import { commands } from "./commands.js";
import { openCliContext, type CliSetup } from "./context.js";
import { printLine, type Output } from "./output.js";

/** What `vitrina` runs with: the process's own environment, streams and folder, or a test's. */
export interface CliIo {
  /** Every setting (DATABASE_URL, VITRINA_SECRET_KEY, ...) is read from here, never from process.env. */
  env: Record<string, string | undefined>;
  stdout: Writable;
  stderr: Writable;
  /** Where the config file and the default data dir (.vitrina/) are looked for; default process.cwd(). */
  cwd?: string;
  /** Stops a long-running command (`vitrina worker`) as SIGTERM does; without it, the worker listens to the process's signals. */
  signal?: AbortSignal;
}
const globalFlags = {
  config: { type: "string" },
  memory: { type: "boolean" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} satisfies FlagOptions;

const globalUsage = `usage: vitrina <command> [options]

${commands.map((c) => `  ${c.name.padEnd(12)}${c.summary}`).join("\n")}

vitrina <command> --help shows a command's options.
Global options:
  --config <file>  the app's configuration (default: vitrina.config.js, .mjs or .ts in this directory)
  --json           print JSON instead of tables
  --memory         in-memory storage (nothing survives)
  --version, --help

Storage: the config's \`storage\`, else DATABASE_URL (PostgreSQL, schema \`database.schema\` or VITRINA_DB_SCHEMA),
else embedded PGlite in VITRINA_DATA_DIR (default .vitrina/). Secrets are sealed with the config's \`secretBox\`
or VITRINA_SECRET_KEY (required with PostgreSQL: the same key the server uses).`;

function commandHelp(command: CliCommand): string {
  const flags = Object.keys(command.flags)
    .map((flag) => `--${flag}`)
    .join(" ");
  return `${command.summary}\n\n${command.usage}\n\noptions: ${flags || "(none)"}; global: --config <file> --json --memory`;
}

function version(): string {
  // By the package's own name (its exports map has ./package.json): right from src/cli/ and from the bundled dist/cli.js.
  return (createRequire(import.meta.url)("@vitrina/http-node/package.json") as { version: string }).version;
}

/**
 * Runs `vitrina` with the command line `argv` (without node and the script) and returns its exit
 * code: 0, 1 for a failure, 2 for a usage error. What it prints goes to `io.stdout` and
 * `io.stderr`; it never exits the process, so tests run it in process.
 *
 * ```ts
 * const code = await main(["migrate"], { env: process.env, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  try {
    await run(argv, io);
    return 0;
  } catch (error) {
    return report(error, io.stderr);
  }
}

async function run(argv: string[], io: CliIo): Promise<void> {
  const print: Output = { json: false, stdout: io.stdout, stderr: io.stderr };
  // The command is the first positional; its own flags are only known once we know which it is.
  const first = parseArgs({ args: argv, options: globalFlags, strict: false, allowPositionals: true });
  const name = first.positionals[0];
  if (first.values.version) return printLine(print, version());
  const wanted = name === "help" ? first.positionals[1] : name;
  if (wanted === undefined) {
    // `vitrina --josn` is a typo to point out, not a request for the command list.
    parseCommandLine(argv);
    return printLine(print, globalUsage);
  }
  const command = commands.find((c) => c.name === wanted);
  if (command === undefined)
    throw new UsageError(`unknown command "${wanted}"; commands: ${commands.map((c) => c.name).join(", ")}`);
  if (first.values.help || name === "help") return printLine(print, commandHelp(command));

  const { values, positionals } = parseCommandLine(argv, command);
  const cwd = io.cwd ?? process.cwd();
  const configFile = findConfigFileOrUsageError(cwd, values.config as string | undefined);
  const setup: CliSetup = {
    config: configFile === null ? {} : await loadConfigFile(configFile),
    configFile,
    cwd,
    memory: values.memory === true,
    out: { ...print, json: values.json === true },
    env: io.env,
    signal: io.signal,
  };
  const [, ...rest] = positionals;
  try {
    if (command.runWithSetup) return await command.runWithSetup(setup, rest, values);
    const action = command.prepare!(rest, values, io.env);
    const ctx = await openCliContext(setup);
    try {
      await action(ctx);
    } finally {
      await ctx.vitrina.close();
    }
  } catch (error) {
    if (error instanceof UsageError) Object.assign(error, { command });
    throw error;
  }
}

/** The global flags and `command`'s, strictly: an unknown flag, or one given twice, is a usage error. */
function parseCommandLine(argv: string[], command?: CliCommand) {
  const usageError = (message: string, flag?: string) => Object.assign(new UsageError(message, flag), { command });
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...globalFlags, ...command?.flags },
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  // parseArgs keeps the last of `--user ana --user bob`: refuse it rather than act as one of them.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== "option") continue;
    if (seen.has(token.name)) throw usageError(`--${token.name} is given more than once`, `--${token.name}`);
    seen.add(token.name);
  }
  return parsed;
}

function findConfigFileOrUsageError(cwd: string, explicit: string | undefined): string | null {
  try {
    return findConfigFile(cwd, explicit);
  } catch (error) {
    throw new UsageError((error as Error).message, "--config");
  }
}

/** `vitrina: code: message`, then every field at fault; a usage error also shows the command's usage. */
function report(error: unknown, stderr: Writable): number {
  if (!isVitrinaError(error)) {
    // Anything can be thrown (a config file's `throw null`): never fail while reporting it.
    stderr.write(`vitrina: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const lines = [`vitrina: ${error.code}: ${error.message}`, ...reasonLines(error), ...outageCause(error)];
  if (error instanceof UsageError) {
    const command = (error as UsageError & { command?: CliCommand }).command;
    lines.push(
      "",
      command ? `${command.usage}\n(vitrina ${command.name} --help)` : "vitrina --help lists the commands",
    );
  }
  stderr.write(`${lines.join("\n")}\n`);
  return error instanceof UsageError ? 2 : 1;
}

/**
 * What the driver said about an outage ("connect ECONNREFUSED 10.0.3.12:5432"): a storage error's
 * message stays generic because it can reach HTTP callers, and the person at the console needs it.
 */
function outageCause(error: VitrinaError): string[] {
  const cause = error.cause;
  if (!error.code.startsWith("storage_") || !(cause instanceof Error)) return [];
  // Node reports a refused "localhost" (::1 and 127.0.0.1) as an AggregateError without a message.
  return [`  cause: ${cause.message || (cause as { code?: string }).code || cause.name}`];
}

function reasonLines(error: VitrinaError): string[] {
  // A UsageError's one reason repeats its message.
  if (error instanceof UsageError) return [];
  return error.reasons.map((r) => `  ${r.field || "(body)"}: ${r.reason}`);
}
