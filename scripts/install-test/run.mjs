#!/usr/bin/env node
// `pnpm test:install` (run by .ci/run): installs the packed @vitrina/* tarballs into a fresh npm
// project, as the README's "Install" section tells users to, and runs a lead and webhook round trip
// from each kind of app: ESM and CommonJS JavaScript, and TypeScript with `node16`, `nodenext` (ESM
// and CommonJS) and `bundler` resolution. One `npm install` serves the whole matrix: every case is a
// folder inside the project (its own package.json `type` and tsconfig), and Node and TypeScript find
// the shared node_modules by walking up. Needs the npm registry for the packages' dependencies.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "vitrina-install-test-"));
const keep = process.env.VITRINA_INSTALL_TEST_KEEP === "1";

/**
 * `checkLibraries`: our declaration files are type-checked too (a broken .d.ts is what a user's tsc
 * reports), in the two strictest cases only: it costs about ten seconds a case, and attw already checks
 * that the types resolve in every mode.
 */
const tsconfig = (compilerOptions, { checkLibraries = false } = {}) => ({
  compilerOptions: {
    strict: true,
    outDir: "out",
    types: ["node"],
    target: "es2022",
    skipLibCheck: !checkLibraries,
    ...compilerOptions,
  },
  files: ["round-trip.ts"],
});

/** Each case: its package.json `type`, how its files are made, and what runs. */
const CASES = [
  { name: "ESM (JavaScript)", dir: "esm", type: "module", js: "esm", run: ["every-entry.mjs", "round-trip.mjs"] },
  {
    name: "CommonJS (JavaScript)",
    dir: "cjs",
    type: "commonjs",
    js: "cjs",
    run: ["every-entry.cjs", "round-trip.cjs"],
  },
  {
    name: "TypeScript node16 (ESM)",
    dir: "ts-node16",
    type: "module",
    tsconfig: tsconfig({ module: "node16", moduleResolution: "node16" }, { checkLibraries: true }),
  },
  {
    name: "TypeScript nodenext (ESM)",
    dir: "ts-nodenext-esm",
    type: "module",
    tsconfig: tsconfig({ module: "nodenext", moduleResolution: "nodenext" }),
  },
  {
    name: "TypeScript nodenext (CommonJS)",
    dir: "ts-nodenext-cjs",
    type: "commonjs",
    tsconfig: tsconfig({ module: "nodenext", moduleResolution: "nodenext" }, { checkLibraries: true }),
  },
  {
    name: "TypeScript bundler",
    dir: "ts-bundler",
    type: "module",
    tsconfig: tsconfig({ module: "esnext", moduleResolution: "bundler" }),
  },
];

async function step(label, command, args, cwd) {
  try {
    return await run(command, args, { cwd, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 });
  } catch (error) {
    throw new Error(`${label} failed:\n${error.stdout ?? ""}${error.stderr ?? error.message}`);
  }
}

async function main() {
  const packed = join(work, "packed");
  await step("pack:all", process.execPath, [join(root, "scripts/pack-all.mjs"), packed], root);
  const tarballs = readdirSync(packed).filter((name) => name.endsWith(".tgz"));

  const app = join(work, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "fresh-app", private: true }, null, 2));
  const started = Date.now();
  // The README's one command, plus the compiler the TypeScript cases use.
  await step(
    "npm install",
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...tarballs.map((t) => join(packed, t)),
      "typescript@~5.9.3",
      "@types/node@^20.19.0",
    ],
    app,
  );
  console.log(
    `install-test: npm install of ${tarballs.length} tarballs took ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const ts = (await import(join(app, "node_modules/typescript/lib/typescript.js"))).default;
  const source = readFileSync(join(here, "round-trip.ts"), "utf8");
  const results = [];
  for (const testCase of CASES) {
    const dir = join(app, "cases", testCase.dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: testCase.type }));
    const outcome = { name: testCase.name, ok: false, detail: "" };
    try {
      let outputs;
      if (testCase.js) {
        // What a JavaScript user writes: the same app with its types stripped, in their module format.
        const module = testCase.js === "esm" ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS;
        const js = ts.transpileModule(source, { compilerOptions: { module, target: ts.ScriptTarget.ES2022 } });
        writeFileSync(join(dir, testCase.js === "esm" ? "round-trip.mjs" : "round-trip.cjs"), js.outputText);
        for (const file of ["every-entry.mjs", "every-entry.cjs", "entry-points.cjs"])
          cpSync(join(here, file), join(dir, file));
        outputs = testCase.run;
      } else {
        writeFileSync(join(dir, "round-trip.ts"), source);
        writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(testCase.tsconfig, null, 2));
        await step("tsc", process.execPath, [join(app, "node_modules/typescript/bin/tsc"), "-p", "."], dir);
        outputs = ["out/round-trip.js"];
      }
      const lines = [];
      for (const file of outputs) lines.push((await step(file, process.execPath, [file], dir)).stdout.trim());
      Object.assign(outcome, { ok: true, detail: lines.join("; ") });
    } catch (error) {
      outcome.detail = error.message;
    }
    results.push(outcome);
    console.log(`${outcome.ok ? "pass" : "FAIL"}  ${outcome.name}${outcome.ok ? "" : `\n${outcome.detail}`}`);
  }
  const failed = results.filter((r) => !r.ok);
  console.log(
    `install-test: ${results.length - failed.length} of ${results.length} cases passed (node ${process.version})`,
  );
  return failed.length === 0;
}

main()
  .then((ok) => (process.exitCode = ok ? 0 : 1))
  .catch((error) => {
    console.error(`install-test: ${error.message}`);
    process.exitCode = 1;
  })
  .finally(() => {
    if (keep) console.log(`install-test: kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  });
