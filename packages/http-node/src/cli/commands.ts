import { apiKeysCommand } from "./api-keys.js";
import { cleanupCommand } from "./cleanup.js";
import type { CliCommand } from "./command.js";
import { connectorsCommand } from "./connectors.js";
import { contactsCommand } from "./contacts.js";
import { deliveriesCommand } from "./deliveries.js";
import { leadsCommand } from "./leads.js";
import { migrateCommand } from "./migrate.js";
import { triggerCommand } from "./trigger.js";
import { webhooksCommand } from "./webhooks.js";
import { whatsappCommand } from "./whatsapp.js";
import { workerCommand } from "./worker.js";
import { workspacesCommand } from "./workspaces.js";

/** Every `vitrina` command, in the order `vitrina --help` lists them. A new command is one line here. */
export const commands: CliCommand[] = [
  migrateCommand,
  workspacesCommand,
  connectorsCommand,
  apiKeysCommand,
  whatsappCommand,
  contactsCommand,
  webhooksCommand,
  deliveriesCommand,
  triggerCommand,
  leadsCommand,
  workerCommand,
  cleanupCommand,
];
