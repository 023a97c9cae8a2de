#!/usr/bin/env node
// Part of `pnpm smoke` (and so `pnpm test`): the built packages on Bun and Deno, each from the npm
// registry as a devDependency, serving Vitrina with its own server (scripts/other-runtimes/app.mjs:
// a signed lead, an MCP call and a webhook delivery over real sockets).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("../", import.meta.url));
const app = "scripts/other-runtimes/app.mjs";
const RUNTIMES = [
  { name: "Bun", command: "node_modules/.bin/bun", args: [app] },
  // Only what the app needs: sockets on loopback, reading its modules, and the environment.
  {
    name: "Deno",
    command: "node_modules/.bin/deno",
    args: ["run", "--no-lock", "--allow-net=127.0.0.1", "--allow-read", "--allow-env", app],
  },
];

let failed = false;
for (const runtime of RUNTIMES) {
  try {
    const { stdout } = await promisify(execFile)(runtime.command, runtime.args, { cwd: root, timeout: 120_000 });
    console.log(`smoke: ${stdout.trim()}`);
  } catch (error) {
    failed = true;
    console.error(`smoke: ${runtime.name} failed:\n${error.stdout ?? ""}${error.stderr ?? error.message}`);
  }
}
process.exitCode = failed ? 1 : 0;
