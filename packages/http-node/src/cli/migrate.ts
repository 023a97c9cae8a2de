import { noExtraArguments, UsageError, type CliCommand } from "./command.js";
import { openConfiguredStorage } from "./context.js";
import { printJson, printLine } from "./output.js";

/** `storageFromEnv` migrates before it returns; this opens it, says where, and closes it. */
export const migrateCommand: CliCommand = {
  name: "migrate",
  summary: "apply pending database migrations (PostgreSQL, or embedded PGlite without DATABASE_URL)",
  usage: "vitrina migrate [--config vitrina.config.mjs]",
  flags: {},
  async runWithSetup(setup, args) {
    noExtraArguments(args, 0);
    if (setup.config.storage !== undefined) {
      throw new UsageError(
        "the config file passes its own `storage`: run the adapter's migrate(db, { schema }) from your app; `vitrina migrate` migrates the storage it opens itself (DATABASE_URL or PGlite, in `database.schema`)",
      );
    }
    const configured = await openConfiguredStorage(setup);
    if (setup.out.json) printJson(setup.out, { migrated: true, storage: configured.description });
    else printLine(setup.out, `migrations applied: ${configured.description}`);
    await configured.storage.close();
  },
};
