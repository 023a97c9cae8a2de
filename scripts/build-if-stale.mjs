#!/usr/bin/env node
// `pnpm start` and `pnpm bench` run this instead of a full build: it builds only when a package's sources (or
// build configuration) are newer than its dist/, so a second start takes a second, not 20.
// A package counts as stale when dist/ is missing, or when any input file changed after the
// oldest file in dist/ was written (tsup --clean rewrites dist/ as a whole, so its oldest file
// dates the last build). Building is then the ordinary `pnpm -r run build` (dependants need
// their dependencies' fresh types). `pnpm build` always builds.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const SHARED_INPUTS = ["tsconfig.base.json", "pnpm-lock.yaml"].map((file) => join(root, file));
const PACKAGE_INPUTS = ["src", "package.json", "tsconfig.json", "tsup.config.ts"];

/** Every file under `path` (or `path` itself), with its modification time. */
function files(path) {
  if (!existsSync(path)) return [];
  const stat = statSync(path);
  if (!stat.isDirectory()) return [stat.mtimeMs];
  return readdirSync(path).flatMap((name) => files(join(path, name)));
}

/** Why `dir` needs a build, or null when dist/ is newer than every input. */
function staleReason(dir) {
  const built = files(join(dir, "dist"));
  if (built.length === 0) return "not built yet";
  const inputs = [...SHARED_INPUTS, ...PACKAGE_INPUTS.map((input) => join(dir, input))].flatMap(files);
  return Math.max(...inputs) > Math.min(...built) ? "sources changed since the last build" : null;
}

const packagesDir = join(root, "packages");
const stale = readdirSync(packagesDir)
  .map((name) => ({
    name,
    reason: existsSync(join(packagesDir, name, "package.json")) ? staleReason(join(packagesDir, name)) : null,
  }))
  .filter((p) => p.reason !== null);

if (stale.length === 0) {
  console.log("packages are up to date: skipping the build (`pnpm build` forces one)");
} else {
  console.log(`building (${stale.map((p) => `${p.name}: ${p.reason}`).join("; ")})`);
  execFileSync("pnpm", ["-r", "run", "build"], { cwd: root, stdio: "inherit" });
}
