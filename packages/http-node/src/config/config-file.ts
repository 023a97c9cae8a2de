import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { VitrinaError, type VitrinaOptions } from "@vitrina/core";

/**
 * What `vitrina.config.{js,mjs,ts}` exports: the options your app passes to `createVitrina`, so the
 * CLI (`vitrina worker`, `migrate`, the console commands) runs with the same header prefix, storage,
 * webhook options, logger and secret key. Everything is optional; what's missing comes from the
 * environment as documented (`DATABASE_URL`, `VITRINA_SECRET_KEY`, ...).
 */
export interface VitrinaConfig extends Partial<VitrinaOptions> {
  /**
   * Where `storageFromEnv` puts Vitrina's tables when `storage` isn't given: the PostgreSQL schema
   * (default `VITRINA_DB_SCHEMA`, else `vitrina`).
   */
  database?: { schema?: string };
  /** The address CRMs reach Vitrina at, e.g. `https://api.example.com/vitrina`: the CLI prints URLs under it. */
  publicUrl?: string;
}

export type VitrinaConfigExport = VitrinaConfig | (() => VitrinaConfig | Promise<VitrinaConfig>);

/**
 * Types a config file; returns it unchanged.
 *
 * ```js
 * // vitrina.config.mjs
 * import { defineConfig } from "@vitrina/http-node";
 * export default defineConfig({ headerPrefix: "Acme", secretBox: process.env.VITRINA_SECRET_KEY });
 * ```
 */
export function defineConfig<T extends VitrinaConfigExport>(config: T): T {
  return config;
}

export const CONFIG_FILE_NAMES = ["vitrina.config.js", "vitrina.config.mjs", "vitrina.config.ts"] as const;

/** The config file in `cwd`, or null; `explicit` (`--config`) must exist. */
export function findConfigFile(cwd: string, explicit?: string): string | null {
  if (explicit !== undefined) {
    const file = resolve(cwd, explicit);
    if (!existsSync(file))
      throw new VitrinaError("invalid_argument", `--config ${explicit}: no such file (${file})`, {
        reasons: [{ field: "--config", reason: "file not found" }],
      });
    return file;
  }
  for (const name of CONFIG_FILE_NAMES) {
    const file = resolve(cwd, name);
    if (existsSync(file)) return file;
  }
  return null;
}

/**
 * Imports a config file and returns its options: the default export (or a named `config`), an
 * object or a function returning one. Node 20 can't import `.ts` by itself: run the CLI with a loader
 * (`node --import tsx node_modules/.bin/vitrina`), or write the config as `.mjs`.
 */
export async function loadConfigFile(file: string): Promise<VitrinaConfig> {
  let module: Record<string, unknown>;
  try {
    module = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    const hint =
      code === "ERR_UNKNOWN_FILE_EXTENSION"
        ? ": this Node can't import .ts by itself; use vitrina.config.mjs, or run with a loader (node --import tsx)"
        : `: ${(cause as Error).message}`;
    throw new VitrinaError("invalid_argument", `could not load ${file}${hint}`, { cause });
  }
  const exported = module.default ?? module.config;
  let config: unknown = exported;
  if (typeof exported === "function") {
    try {
      config = await (exported as () => unknown)();
    } catch (cause) {
      throw new VitrinaError("invalid_argument", `${file}: its exported function threw: ${describeThrown(cause)}`, {
        cause,
      });
    }
  }
  if (config === null || typeof config !== "object" || Array.isArray(config)) {
    throw new VitrinaError(
      "invalid_argument",
      `${file} must export default an options object (or a function returning one), e.g. export default defineConfig({ headerPrefix: "Acme" })`,
    );
  }
  return config as VitrinaConfig;
}

function describeThrown(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
