import { requireRole } from "@vitrina/core";
import { startWorker } from "../worker.js";
import { requireSecretKey } from "./secret-box.js";
import { list, printJson, required, type CliContext } from "./context.js";

export const consoleUsage = `vitrina workspaces create --name <name> --owner <userId> [--vertical real_estate|generic] [--currency CLP]
vitrina api-keys issue  --workspace <id> --user <userId> --name <name> --scopes <scope,scope>
vitrina api-keys list   --workspace <id> --user <userId>
vitrina api-keys revoke <keyId> --workspace <id> --user <userId>
vitrina deliveries list   --workspace <id> --subscription <id> --user <userId> [--limit N] [--starting-after <deliveryId>]
vitrina deliveries resend <deliveryId> --workspace <id> --subscription <id> --user <userId>
vitrina worker          run the outbox worker until SIGTERM/SIGINT (finishes in-flight deliveries)`;

type Flags = Record<string, string | undefined>;

export async function workspacesCommand(ctx: CliContext, [action]: string[], flags: Flags): Promise<void> {
  if (action !== "create") throw new Error(`unknown workspaces action "${action ?? ""}"\n${consoleUsage}`);
  printJson(
    await ctx.vitrina.workspaces.create({
      name: required(flags.name, "name"),
      ownerUserId: required(flags.owner, "owner"),
      ...(flags.vertical ? { vertical: flags.vertical as "real_estate" | "generic" } : {}),
      ...(flags.currency ? { currency: flags.currency } : {}),
    }),
  );
}

/** API keys: the secret is printed once; only its hash is stored. */
export async function apiKeysCommand(ctx: CliContext, [action, keyId]: string[], flags: Flags): Promise<void> {
  const actor = { userId: required(flags.user, "user") };
  const workspaceId = required(flags.workspace, "workspace");
  if (action === "issue") {
    printJson(await ctx.vitrina.apiKeys.issue(actor, workspaceId, { name: required(flags.name, "name"), scopes: list(flags.scopes, "scopes") }));
    console.error("The key above is shown once. Store it now.");
  } else if (action === "list") printJson(await ctx.vitrina.apiKeys.list(actor, workspaceId));
  else if (action === "revoke") printJson(await ctx.vitrina.apiKeys.revoke(actor, workspaceId, required(keyId, "key id (positional)")));
  else throw new Error(`unknown api-keys action "${action ?? ""}"\n${consoleUsage}`);
}

/** Delivery history and manual resend, for an owner or admin at the console. */
export async function deliveriesCommand(ctx: CliContext, [action, deliveryId]: string[], flags: Flags): Promise<void> {
  const workspaceId = required(flags.workspace, "workspace");
  const subscriptionId = required(flags.subscription, "subscription");
  await requireRole(ctx.vitrina.storage, { userId: required(flags.user, "user") }, workspaceId, ["owner", "admin"], "manage webhook deliveries");
  if (action === "list") {
    const page = await ctx.vitrina.webhooks.deliveries(workspaceId, subscriptionId, {
      ...(flags.limit ? { limit: Number(flags.limit) } : {}),
      ...(flags["starting-after"] ? { startingAfter: flags["starting-after"] } : {}),
    });
    printJson(page);
  } else if (action === "resend") {
    printJson(await ctx.vitrina.webhooks.resend(workspaceId, subscriptionId, required(deliveryId, "delivery id (positional)")));
    console.error("Queued for delivery; a running worker (the server or `vitrina worker`) sends it.");
  } else throw new Error(`unknown deliveries action "${action ?? ""}"\n${consoleUsage}`);
}

/** Runs the outbox worker in this process until a signal; resolves once it stopped cleanly. */
export async function workerCommand(ctx: CliContext): Promise<void> {
  // Signing opens every subscription's sealed secret: without the server's key nothing could be sent.
  await requireSecretKey(ctx.configured, undefined);
  const worker = startWorker(ctx.vitrina);
  console.error(`vitrina worker ${worker.workerId} delivering from ${ctx.configured.description}; Ctrl-C to stop`);
  await worker.stopped;
}
