import { SCOPES } from "@vitrina/core";
import { list, noExtraArguments, required, requiredPositional, unknownAction, type CliCommand } from "./command.js";
import { printJson, printList, printNote, printRecord } from "./output.js";

/** API keys: the secret is printed once; only its hash is stored. */
export const apiKeysCommand: CliCommand = {
  name: "api-keys",
  summary: "issue, list and revoke API keys",
  usage: `vitrina api-keys issue  --workspace <id> --user <userId> --name <name> --scopes <scope,scope>
vitrina api-keys list   --workspace <id> --user <userId>
vitrina api-keys revoke <keyId> --workspace <id> --user <userId>
scopes: ${SCOPES.join(", ")}`,
  flags: {
    workspace: { type: "string" },
    user: { type: "string" },
    name: { type: "string" },
    scopes: { type: "string" },
  },
  prepare(args, flags) {
    const [action, keyId] = args;
    const actor = { userId: required(flags.user, "user") };
    const workspaceId = required(flags.workspace, "workspace");
    if (action === "issue" || action === "list") noExtraArguments(args, 1);
    if (action === "issue") {
      const input = { name: required(flags.name, "name"), scopes: list(flags.scopes, "scopes") };
      return async (ctx) => {
        const issued = await ctx.vitrina.apiKeys.issue(actor, workspaceId, input);
        if (ctx.out.json) printJson(ctx.out, issued);
        else
          printRecord(ctx.out, {
            id: issued.key.id,
            name: issued.key.name,
            scopes: issued.key.scopes.join(","),
            secret: issued.secret,
          });
        printNote(ctx.out, "The key above is shown once. Store it now.");
      };
    }
    if (action === "list") {
      return async (ctx) => {
        const keys = await ctx.vitrina.apiKeys.list(actor, workspaceId);
        printList(ctx.out, keys, [
          ["ID", (k) => k.id],
          ["NAME", (k) => k.name],
          ["SCOPES", (k) => k.scopes.join(",")],
          ["CREATED", (k) => k.createdAt],
          ["REVOKED", (k) => k.revokedAt],
        ]);
      };
    }
    if (action === "revoke") {
      const id = requiredPositional(keyId, "keyId");
      noExtraArguments(args, 2);
      return async (ctx) => {
        const revoked = await ctx.vitrina.apiKeys.revoke(actor, workspaceId, id);
        printRecord(ctx.out, revoked as unknown as Record<string, unknown>);
      };
    }
    return unknownAction(apiKeysCommand, action);
  },
};
