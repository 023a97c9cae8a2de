import type { CliContext } from "./context.js";
import { required } from "./context.js";

export const connectorsUsage = `vitrina connectors create --workspace <id> --name <visible name> --system-id <id> --user <userId>
vitrina connectors list   --workspace <id> --user <userId>
vitrina connectors rotate <connectorId> --user <userId>`;

/** The console's connector operations. Secrets are printed once, to stdout, and never again. */
export async function connectorsCommand(ctx: CliContext, args: string[], flags: Record<string, string | undefined>): Promise<void> {
  const [action, connectorId] = args;
  const actor = { userId: required(flags.user, "user") };
  const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));
  switch (action) {
    case "create": {
      const created = await ctx.vitrina.connectors.create(actor, required(flags.workspace, "workspace"), {
        name: required(flags.name, "name"),
        systemId: required(flags["system-id"], "system-id"),
      });
      print(created);
      console.error("The secret above is shown once. Store it in the sending system now.");
      return;
    }
    case "list":
      print(await ctx.vitrina.connectors.list(actor, required(flags.workspace, "workspace")));
      return;
    case "rotate": {
      const rotated = await ctx.vitrina.connectors.rotate(actor, required(connectorId, "connector id (positional)"));
      print(rotated);
      console.error("The previous secret stopped working. The new one above is shown once.");
      return;
    }
    default:
      throw new Error(`unknown connectors action "${action ?? ""}"\n${connectorsUsage}`);
  }
}
