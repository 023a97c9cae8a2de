#!/usr/bin/env node
// The `vitrina` process: runs the CLI (cli/main.ts) with this process's environment, streams and
// folder, and exits with its code.
import { main } from "./cli/main.js";

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
