import {
  noExtraArguments,
  oneOf,
  required,
  unknownAction,
  UsageError,
  type CliAction,
  type CliCommand,
  type Flags,
} from "./command.js";
import { printList, printRecord } from "./output.js";

const VERTICALS = ["real_estate", "generic"] as const;

export const workspacesCommand: CliCommand = {
  name: "workspaces",
  summary: "create a workspace (its owner is the first member), list a user's workspaces",
  usage: `vitrina workspaces create --name <name> --owner <userId> [--vertical real_estate|generic] [--currency CLP]
vitrina workspaces list   --user <userId>`,
  flags: {
    name: { type: "string" },
    owner: { type: "string" },
    user: { type: "string" },
    vertical: { type: "string" },
    currency: { type: "string" },
  },
  prepare(args, flags) {
    const [action] = args;
    if (action !== "create" && action !== "list") unknownAction(workspacesCommand, action);
    noExtraArguments(args, 1);
    if (action === "create") return create(flags);
    const userId = required(flags.user, "user");
    return async (ctx) => {
      const workspaces = await ctx.vitrina.workspaces.listForUser({ userId });
      printList(ctx.out, workspaces, [
        ["ID", (w) => w.id],
        ["NAME", (w) => w.name],
        ["ROLE", (w) => w.role],
        ["VERTICAL", (w) => w.vertical],
        ["CURRENCY", (w) => w.currency],
        ["CREATED", (w) => w.createdAt],
      ]);
    };
  },
};

function create(flags: Flags): CliAction {
  const vertical = oneOf(flags.vertical, "vertical", VERTICALS);
  const currency = flags.currency === undefined ? undefined : String(flags.currency);
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) {
    throw new UsageError(
      `--currency must be a three-letter ISO 4217 code in capitals such as CLP or USD, got "${currency}"`,
      "--currency",
    );
  }
  const input = {
    name: required(flags.name, "name"),
    ownerUserId: required(flags.owner, "owner"),
    ...(vertical ? { vertical } : {}),
    ...(currency ? { currency } : {}),
  };
  return async (ctx) => {
    const workspace = await ctx.vitrina.workspaces.create(input);
    printRecord(ctx.out, { ...workspace });
  };
}
