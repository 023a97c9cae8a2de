import { execFile } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { vitrinaSourceAliases } from "../../../../vitest.aliases.js";

const httpNode = fileURLToPath(new URL("../../", import.meta.url));
const cliSource = join(httpNode, "src/cli.ts");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

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

let bundled: Promise<string> | undefined;

/**
 * The CLI bundled from the current sources, once per test process (about a second), instead of
 * transpiling them in every child (about five seconds per run through Vite's module runner). It
 * lives under http-node's node_modules, so its external imports resolve as the package's do, and
 * `import.meta.url` is the source file's, so it finds http-node's package.json as it would.
 */
function cliBundle(): Promise<string> {
  bundled ??= (async () => {
    const outfile = join(httpNode, "node_modules/.cache/vitrina-test-cli", `cli-${process.pid}.mjs`);
    mkdirSync(dirname(outfile), { recursive: true });
    process.once("exit", () => rmSync(outfile, { force: true }));
    await build({
      entryPoints: [cliSource],
      outfile,
      bundle: true,
      platform: "node",
      // Node ignores "module" (main field and export condition): resolving as Node does keeps each
      // package on the build Node would load.
      mainFields: ["main"],
      conditions: [],
      format: "esm",
      target: "node20",
      plugins: [sourcesPlugin],
      define: { "import.meta.url": JSON.stringify(pathToFileURL(cliSource).href) },
      logLevel: "silent",
    });
    return outfile;
  })();
  return bundled;
}

/**
 * Runs the `vitrina` CLI, built from the sources, in a separate process, in `cwd` (where it looks
 * for vitrina.config.*), with `env` over this process's environment. PGlite data lands in
 * `cwd/.vitrina` unless `env` says otherwise.
 */
export async function runCli(args: string[], options: { cwd?: string; env?: Record<string, string> }): Promise<CliRun> {
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
  return { command: process.execPath, args: [await cliBundle(), ...args] };
}
