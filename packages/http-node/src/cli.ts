#!/usr/bin/env node
// The `vitrina` command. Subcommands arrive with the storage adapters (migrate, connectors, worker).
console.error("usage: vitrina <command>\n\nNo commands are available in this build yet.");
process.exit(2);
