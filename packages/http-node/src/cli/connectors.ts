import { requireRole, type Actor, type ConnectorView } from "@vitrina/core/capabilities";
import { NotFoundError } from "@vitrina/core";
import {
  noExtraArguments,
  required,
  requiredPositional,
  unknownAction,
  UsageError,
  type CliCommand,
} from "./command.js";
import type { CliContext } from "./context.js";
import { LEAD_INTAKE_PATH, publicAddress } from "./public-address.js";
import { printJson, printList, printNote, printRecord } from "./output.js";

/** The connector operations. Secrets are printed once, to stdout, and never again. */
export const connectorsCommand: CliCommand = {
  name: "connectors",
  summary: "create, list and rotate the connectors CRMs sign leads with; see their refused leads",
  usage: `vitrina connectors create --workspace <id> --name <visible name> --system-id <id> --user <userId> [--public-url <url>]
vitrina connectors list   --workspace <id> --user <userId>
vitrina connectors rotate <connectorId> --user <userId> [--public-url <url>]
vitrina connectors refusals <connectorId> --user <userId>   (its newest refused leads: code, fields, skew, request id)`,
  flags: {
    workspace: { type: "string" },
    name: { type: "string" },
    "system-id": { type: "string" },
    user: { type: "string" },
    "public-url": { type: "string" },
  },
  prepare(args, flags) {
    const [action, connectorId] = args;
    const actor = { userId: required(flags.user, "user") };
    switch (action) {
      case "create": {
        noExtraArguments(args, 1);
        checkPublicUrl(flags["public-url"]);
        const input = {
          workspaceId: required(flags.workspace, "workspace"),
          name: required(flags.name, "name"),
          systemId: required(flags["system-id"], "system-id"),
        };
        return async (ctx) => {
          const created = await ctx.vitrina.connectors.create(actor, input);
          printSecret(ctx, created.connector, created.secret, flags);
          printNote(ctx.out, "The secret above is shown once. Store it in the sending system now.");
        };
      }
      case "list": {
        noExtraArguments(args, 1);
        const workspaceId = required(flags.workspace, "workspace");
        return async (ctx) => {
          const connectors = await ctx.vitrina.connectors.list(actor, { workspaceId });
          printList(ctx.out, connectors, [
            ["ID", (c) => c.id],
            ["NAME", (c) => c.name],
            ["SYSTEM", (c) => c.systemId],
            ["SECRET VERSION", (c) => c.secretVersion],
            ["CREATED", (c) => c.createdAt],
          ]);
        };
      }
      case "rotate": {
        const id = requiredPositional(connectorId, "connectorId");
        noExtraArguments(args, 2);
        checkPublicUrl(flags["public-url"]);
        return async (ctx) => {
          const rotated = await ctx.vitrina.connectors.rotate(actor, { connectorId: id });
          printSecret(ctx, rotated.connector, rotated.secret, flags);
          printNote(ctx.out, "The previous secret stopped working. The new one above is shown once.");
        };
      }
      case "refusals": {
        const id = requiredPositional(connectorId, "connectorId");
        noExtraArguments(args, 2);
        return (ctx) => printRefusals(ctx, actor, id);
      }
      default:
        return unknownAction(connectorsCommand, action);
    }
  },
};

/**
 * `--public-url` as the address a CRM can send to: an absolute http(s) URL, a path allowed (a
 * mount under a prefix), no query or fragment. Checked before anything is created or rotated, so
 * a typo never costs a secret that was printed next to a URL nobody can use.
 */
function checkPublicUrl(value: unknown): void {
  if (value === undefined) return;
  const reason = `must be an absolute http(s) URL without query or fragment, such as https://shop.example.com/vitrina (got "${String(value)}")`;
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new UsageError(`--public-url ${reason}`, "--public-url");
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.search !== "" || url.hash !== "")
    throw new UsageError(`--public-url ${reason}`, "--public-url");
}

/** The connector, its secret and where the CRM sends leads (the placeholder says how to fill it in). */
function printSecret(ctx: CliContext, connector: ConnectorView, secret: string, flags: Record<string, unknown>): void {
  const leadIntakeUrl =
    publicAddress(ctx, LEAD_INTAKE_PATH, flags["public-url"] as string | undefined) ??
    `<your public URL>${ctx.vitrina.basePath}${LEAD_INTAKE_PATH} (pass --public-url or set publicUrl in vitrina.config.mjs)`;
  if (ctx.out.json) return printJson(ctx.out, { connector, secret, lead_intake_url: leadIntakeUrl });
  const prefix = ctx.config.headerPrefix ?? "Vitrina";
  printRecord(ctx.out, {
    id: connector.id,
    name: connector.name,
    system_id: connector.systemId,
    secret_version: connector.secretVersion,
    secret,
    lead_intake_url: leadIntakeUrl,
    signed_with: `X-${prefix}-Connector-Id, X-${prefix}-Timestamp, X-${prefix}-Signature`,
  });
}

/** `connectors refusals`: any member of the connector's workspace may read them, as in the admin API. */
async function printRefusals(ctx: CliContext, actor: Actor, connectorId: string): Promise<void> {
  const { storage, admin } = ctx.vitrina;
  const connector = await storage.connectors.get(connectorId.toLowerCase());
  if (connector === null) throw new NotFoundError(`connector ${connectorId} does not exist`);
  await requireRole(storage, actor, connector.workspaceId, ["owner", "admin", "member"], "read refused leads");
  const refusals = await storage.leadRefusals.listByConnector(connector.id, admin.leads.refusalsKept);
  printList(ctx.out, refusals, [
    ["AT", (r) => r.at],
    ["CODE", (r) => r.code],
    ["FIELDS", (r) => r.fields.join(",")],
    ["SKEW MS", (r) => r.skewMs ?? ""],
    ["REQUEST ID", (r) => r.requestId ?? ""],
    ["NOT RECORDED BEFORE", (r) => r.unrecordedBefore],
  ]);
}
