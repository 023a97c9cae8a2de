import { requireRole } from "@vitrina/core/capabilities";
import { noExtraArguments, required, unknownAction, type CliCommand } from "./command.js";
import { printList } from "./output.js";
import { operateFlags, operateUsage, prepareOperate } from "./webhooks-operate.js";

/** The workspace's webhook subscriptions: where `deliveries list --subscription` gets its id. */
export const webhooksCommand: CliCommand = {
  name: "webhooks",
  summary: "list a workspace's webhook subscriptions, their health; recover failed deliveries",
  usage: `vitrina webhooks list --workspace <id> --user <userId>\n${operateUsage}`,
  flags: { workspace: { type: "string" }, user: { type: "string" }, ...operateFlags },
  prepare(args, flags) {
    if (args[0] === "health" || args[0] === "recover") return prepareOperate(args[0], args, flags);
    if (args[0] !== "list") unknownAction(webhooksCommand, args[0]);
    noExtraArguments(args, 1);
    const workspaceId = required(flags.workspace, "workspace");
    const actor = { userId: required(flags.user, "user") };
    return async (ctx) => {
      await requireRole(ctx.vitrina.storage, actor, workspaceId, ["owner", "admin"], "list webhook subscriptions");
      const page = await ctx.vitrina.webhooks.list(workspaceId);
      printList(
        ctx.out,
        page.data,
        [
          ["ID", (s) => s.id],
          ["URL", (s) => s.url],
          ["EVENTS", (s) => s.events.join(",")],
          ["ENABLED", (s) => (s.enabled ? "yes" : `no (${s.disabled_reason ?? "disabled"})`)],
          ["CREATED", (s) => s.created_at],
        ],
        page,
      );
    };
  },
};
