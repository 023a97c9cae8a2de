import { required, unknownAction, oneOf, UsageError, type CliCommand } from "./command.js";
import { printRecord } from "./output.js";

const VERTICALS = ["real_estate", "generic"] as const;

export const workspacesCommand: CliCommand = {
  name: "workspaces",
  summary: "create a workspace (its owner is the first member)",
  usage: "vitrina workspaces create --name <name> --owner <userId> [--vertical real_estate|generic] [--currency CLP]",
  flags: { name: { type: "string" }, owner: { type: "string" }, vertical: { type: "string" }, currency: { type: "string" } },
  async run(ctx, [action], flags) {
    if (action !== "create") unknownAction(workspacesCommand, action);
    const vertical = oneOf(flags.vertical, "vertical", VERTICALS);
    const currency = flags.currency === undefined ? undefined : String(flags.currency);
    if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) throw new UsageError(`--currency must be an ISO 4217 code in capitals such as CLP or USD, got "${currency}"`, "--currency");
    const workspace = await ctx.vitrina.workspaces.create({
      name: required(flags.name, "name"),
      ownerUserId: required(flags.owner, "owner"),
      ...(vertical ? { vertical } : {}),
      ...(currency ? { currency } : {}),
    });
    printRecord(ctx.out, workspace as unknown as Record<string, unknown>);
  },
};
