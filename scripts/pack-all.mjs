#!/usr/bin/env node
// `pnpm pack:all [dir]`: every @vitrina/* package as a tarball in one folder (default `packed/`), built
// first when its sources changed. The packages are not on the registry yet, and a tarball alone can't
// install (its `@vitrina/core` peer would be looked up there): one `npm install` of all of them can.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const destination = resolve(process.argv[2] ?? resolve(root, "packed"));

execFileSync(process.execPath, [resolve(root, "scripts/build-if-stale.mjs")], { stdio: "inherit", cwd: root });
mkdirSync(destination, { recursive: true });
// An old version's tarball left next to the new ones would install twice over.
for (const name of readdirSync(destination).filter((name) => name.endsWith(".tgz"))) rmSync(resolve(destination, name));
execFileSync("pnpm", ["-r", "--filter", "./packages/*", "pack", "--pack-destination", destination], {
  stdio: ["ignore", "ignore", "inherit"],
  cwd: root,
});
const tarballs = readdirSync(destination).filter((name) => name.endsWith(".tgz"));
const shown = relative(process.cwd(), destination) || ".";
console.log(`${tarballs.length} packages in ${shown}/:\n${tarballs.map((t) => `  ${t}`).join("\n")}`);
console.log(
  `\nInstall them into your app with one command (all of them together):\n  npm install ${shown}/vitrina-*.tgz`,
);
