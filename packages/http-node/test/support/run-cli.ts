import { execFile } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { vitrinaSourceAliases } from "../../../../vitest.aliases.js";
import type { CliRun } from "./cli-main.js";

const httpNode = fileURLToPath(new URL("../../", import.meta.url));
const cliSource = join(httpNode, "src/cli.ts");

/**
 * `@vitrina/*` imports go to their sources (the aliases the tests use). Every other package stays
 * outside the bundle, imported by the absolute path esbuild resolves for it from the importing
 * source file (ESM conditions), so each package finds its own dependencies as it does in the tests.
 */
const sourcesPlugin: Plugin = {
  name: "vitrina-sources",
  setup(build) {
    build.onResolve({ filter: /^@vitrina\// }, ({ path }) => {
      const alias = vitrinaSourceAliases.find((a) => a.find.test(path));
      return alias === undefined ? undefined : { path: path.replace(alias.find, alias.replacement) };
    });
    build.onResolve({ filter: /^[^./]/ }, async ({ path, kind, resolveDir, pluginData }) => {
      if (pluginData === "resolving" || path.startsWith("node:")) return undefined;
      const resolved = await build.resolve(path, { kind, resolveDir, pluginData: "resolving" });
      if (resolved.errors.length > 0 || resolved.external) return { path, external: true };
      return { path: resolved.path, external: true };
    });
  },
};

/**
 * `import.meta.url` in each bundled source file stays that file's own URL (as when it runs from
 * the sources), so a module finds files next to it, e.g. a file next to a source module.
 */
const ownImportMetaUrlPlugin: Plugin = {
  name: "vitrina-own-import-meta-url",
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, async ({ path }) => {
      if (path.includes("/node_modules/")) return undefined;
      const source = await readFile(path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      return {
        contents: source.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(path).href)),
        loader: /\.m?ts$/.test(path) ? "ts" : "js",
        resolveDir: dirname(path),
      };
    });
  },
};

const bundles = new Map<string, Promise<string>>();
let bundleDir: string | undefined;

/** This test process's own folder of bundles, removed when it exits. */
function ownBundleDir(): string {
  if (bundleDir === undefined) {
    const dir = join(httpNode, "node_modules/.cache/vitrina-test-bundles", String(process.pid));
    mkdirSync(dir, { recursive: true });
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    bundleDir = dir;
  }
  return bundleDir;
}

/**
 * A Node entry point of the repo (TypeScript or .mjs) bundled from the current sources, once per
 * test process (about a second), instead of transpiling them in every child (about five seconds
 * per run through Vite's module runner, support/run-source.mjs). The bundle keeps the entry's file
 * name (`cli.mjs`, `main.mjs`: what a process shows as its command, e.g. in a data dir's lock) and
 * lives under http-node's node_modules, so its external imports resolve as the package's do.
 */
export function sourceBundle(entry: string): Promise<string> {
  let bundled = bundles.get(entry);
  if (bundled === undefined) {
    bundled = (async () => {
      const outfile = join(ownBundleDir(), `${basename(entry).replace(/\.[^.]+$/, "")}.mjs`);
      await build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        platform: "node",
        // Node ignores "module" (main field and export condition): resolving as Node does keeps each
        // package on the build Node would load.
        mainFields: ["main"],
        conditions: [],
        format: "esm",
        target: "node20",
        plugins: [sourcesPlugin, ownImportMetaUrlPlugin],
        logLevel: "silent",
      });
      return outfile;
    })();
    bundles.set(entry, bundled);
  }
  return bundled;
}

/**
 * Runs the `vitrina` CLI, built from the sources, in a separate process (most tests run its `main`
 * in process instead: support/cli-main.ts), in `cwd` (where it looks
 * for vitrina.config.*), with `env` over this process's environment. PGlite data lands in
 * `cwd/.vitrina` unless `env` says otherwise.
 */
export async function spawnCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> },
): Promise<CliRun> {
  const { command, args: argv } = await cliCommand(args);
  return new Promise((resolve) => {
    execFile(
      command,
      argv,
      { cwd: options.cwd, env: { ...process.env, VITRINA_DATA_DIR: "", VITRINA_STORAGE: "", ...options.env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The same invocation as a long-running child (e.g. `vitrina worker`), for tests that stop it. */
export async function cliCommand(args: string[]): Promise<{ command: string; args: string[] }> {
  return { command: process.execPath, args: [await sourceBundle(cliSource), ...args] };
}
