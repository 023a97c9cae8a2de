import type { ParseArgsConfig } from "node:util";
import { isVitrinaError, VitrinaError } from "@vitrina/core";
import type { CliContext, CliSetup } from "./context.js";

export type Flags = Record<string, string | boolean | undefined>;
/** What a command does once its command line checked out and storage is open. */
export type CliAction = (ctx: CliContext) => Promise<void>;
export type FlagOptions = NonNullable<ParseArgsConfig["options"]>;

/**
 * One command group of `vitrina` (`connectors`, `worker`, ...), in its own file. Adding a command
 * is one file and one line in `commands.ts`.
 */
export interface CliCommand {
  name: string;
  /** One line for `vitrina --help`. */
  summary: string;
  /** The command's usage lines, shown by `vitrina <name> --help` and after a usage error. */
  usage: string;
  /** Flags this command accepts besides the global ones (`--config`, `--memory`, `--json`). */
  flags: FlagOptions;
  /**
   * Checks the command line and returns what to run with the configured storage and a Vitrina over
   * it, which the CLI opens only then (and closes after). Every usage error is thrown here, before
   * any storage opens: a typo answers at once, not after an embedded database has started.
   */
  prepare?(positionals: string[], flags: Flags, env: Record<string, string | undefined>): CliAction;
  /** Instead of `prepare`, for a command that opens storage its own way (`migrate`). */
  runWithSetup?(setup: CliSetup, positionals: string[], flags: Flags): Promise<void>;
}

/** A mistake in the command line: printed with the command's usage, exit code 2. */
export class UsageError extends VitrinaError {
  override readonly name = "UsageError";
  constructor(message: string, flag?: string) {
    super("invalid_argument", message, flag === undefined ? {} : { reasons: [{ field: flag, reason: message }] });
  }
}

export function required(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== "string" || value === "") throw new UsageError(`missing --${flag}`, `--${flag}`);
  return value;
}

/** A positional argument, e.g. the connector id of `connectors rotate <connectorId>`. */
export function requiredPositional(value: string | undefined, name: string): string {
  if (value === undefined || value === "") throw new UsageError(`missing <${name}>`, name);
  return value;
}

/** `--scopes a,b` → `["a", "b"]`. */
export function list(value: string | boolean | undefined, flag: string): string[] {
  return required(value, flag)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * `--limit 20` → 20; anything but a whole number from 1 to `max` is a usage error naming the flag
 * (a 21-digit limit would otherwise reach the database as a number it can't hold).
 */
export function positiveInteger(value: string | boolean | undefined, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^[1-9][0-9]*$/.test(text))
    throw new UsageError(`--${flag} must be a positive whole number, got "${text}"`, `--${flag}`);
  if (Number(text) > max) throw new UsageError(`--${flag} must be at most ${max}, got ${text}`, `--${flag}`);
  return Number(text);
}

export function oneOf<T extends string>(
  value: string | boolean | undefined,
  flag: string,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T))
    throw new UsageError(`--${flag} must be one of ${allowed.join(", ")}, got "${String(value)}"`, `--${flag}`);
  return value as T;
}

/**
 * A word past the arguments the command's usage names (`workspaces list ana`, `cleanup now`) is a
 * usage error: it is a forgotten flag name more often than not, and running without it would
 * silently do something else.
 */
export function noExtraArguments(positionals: string[], count: number): void {
  const extra = positionals[count];
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
}

export function unknownAction(command: CliCommand, action: string | undefined): never {
  throw new UsageError(
    action === undefined ? `${command.name}: which action?` : `unknown ${command.name} action "${action}"`,
  );
}

/**
 * A service's validation refusal naming what the person at the console typed (`--phone`, an
 * environment variable) instead of the service's field (`phoneE164`); other errors pass through.
 */
export function inCommandLineTerms(error: unknown, typedAs: Record<string, string>): unknown {
  if (!isVitrinaError(error) || error.code !== "invalid_payload") return error;
  const reasons = error.reasons.map((r) => ({ field: typedAs[r.field] ?? r.field, reason: r.reason }));
  return new VitrinaError(error.code, error.message, { reasons, cause: error });
}
