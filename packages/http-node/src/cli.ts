#!/usr/bin/env node
// `vitrina`: console operations against the configured storage (DATABASE_URL → PostgreSQL;
// otherwise embedded PGlite in VITRINA_DATA_DIR, default .vitrina/; --memory for in-memory).
import { parseArgs } from "node:util";
import { isVitrinaError } from "@vitrina/core";
import { apiKeysCommand, consoleUsage, deliveriesCommand, workerCommand, workspacesCommand } from "./cli/console-commands.js";
import { connectorsCommand, connectorsUsage } from "./cli/connectors.js";
import { openCliContext } from "./cli/context.js";
import { storageFromEnv } from "./storage-from-env.js";

const usage = `usage:
vitrina migrate                 apply pending database migrations
${connectorsUsage}
${consoleUsage}

Storage: DATABASE_URL (PostgreSQL), else PGlite in VITRINA_DATA_DIR (default .vitrina/), or --memory.
Secrets are sealed with VITRINA_SECRET_KEY (base64, 32 bytes), else with a key kept in the data dir.`;

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      memory: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      workspace: { type: "string" },
      name: { type: "string" },
      "system-id": { type: "string" },
      user: { type: "string" },
      owner: { type: "string" },
      vertical: { type: "string" },
      currency: { type: "string" },
      scopes: { type: "string" },
      subscription: { type: "string" },
      limit: { type: "string" },
      "starting-after": { type: "string" },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    console.log(usage);
    return;
  }
  if (command === "migrate") {
    // storageFromEnv migrates before it returns; say what it did.
    const configured = await storageFromEnv({ memory: values.memory });
    console.log(`migrations applied: ${configured.description}`);
    await configured.storage.close();
    return;
  }
  const commands = { connectors: connectorsCommand, workspaces: workspacesCommand, "api-keys": apiKeysCommand, deliveries: deliveriesCommand, worker: workerCommand };
  const run = commands[command as keyof typeof commands];
  if (run !== undefined) {
    const ctx = await openCliContext({ memory: values.memory });
    try {
      await run(ctx, rest, values as Record<string, string | undefined>);
    } finally {
      await ctx.vitrina.close();
    }
    return;
  }
  throw new Error(`unknown command "${command}"\n${usage}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(isVitrinaError(error) ? `vitrina: ${error.code}: ${error.message}` : `vitrina: ${(error as Error).message}`);
  process.exitCode = 1;
});
