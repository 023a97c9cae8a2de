#!/usr/bin/env node
// The `vitrina` bin. It is committed (not built) so pnpm links it at the first install, before
// dist/ exists; it runs the built CLI, or says how to build it.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(cli)) {
  console.error("vitrina: the CLI is not built yet: run `pnpm build` (in the repository root), then try again.");
  process.exit(1);
}
await import(cli.href);
