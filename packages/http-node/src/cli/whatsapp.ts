import { VitrinaError } from "@vitrina/core";
import { WHATSAPP_WEBHOOK_PATH, type WhatsAppChannelInput, type WhatsAppChannelView } from "@vitrina/core/whatsapp";
import {
  inCommandLineTerms,
  noExtraArguments,
  required,
  unknownAction,
  UsageError,
  type CliCommand,
  type Flags,
} from "./command.js";
import type { CliContext } from "./context.js";
import { publicAddress } from "./public-address.js";
import { printJson, printNote, printRecord } from "./output.js";

/**
 * Where `whatsapp set` reads the channel's secrets. Never from argv: the command line shows in `ps`
 * and in shell history. The environment, as `VITRINA_SECRET_KEY` is read.
 */
const SECRET_ENV = {
  accessToken: "VITRINA_WHATSAPP_ACCESS_TOKEN",
  appSecret: "VITRINA_WHATSAPP_APP_SECRET",
  verifyToken: "VITRINA_WHATSAPP_VERIFY_TOKEN",
} as const;
const SECRET_FLAGS = {
  "access-token": "accessToken",
  "app-secret": "appSecret",
  "verify-token": "verifyToken",
} as const;
/** What the person at the console typed for each of the service's fields, to name it in a refusal. */
const TYPED_AS: Record<string, string> = {
  ...SECRET_ENV,
  phoneNumberId: "--phone-number-id",
  graphBaseUrl: "--graph-url",
  apiVersion: "--api-version",
};

/** The workspace's WhatsApp channel: show, set (a generated verify token is printed once), remove. */
export const whatsappCommand: CliCommand = {
  name: "whatsapp",
  summary: "show, set and remove a workspace's WhatsApp channel (secrets from the environment)",
  usage: `vitrina whatsapp show   --workspace <id>
vitrina whatsapp set    --workspace <id> --phone-number-id <id> [--receive-only] [--graph-url <url>] [--api-version v21.0]
vitrina whatsapp remove --workspace <id>
set reads secrets from the environment, never the command line: ${SECRET_ENV.appSecret} (required to create),
${SECRET_ENV.accessToken} (to send through the Cloud API), ${SECRET_ENV.verifyToken} (else one is generated
and printed once). A secret left unset keeps the stored one; --receive-only drops the access token.`,
  flags: {
    workspace: { type: "string" },
    "phone-number-id": { type: "string" },
    "receive-only": { type: "boolean" },
    "graph-url": { type: "string" },
    "api-version": { type: "string" },
    // Declared only to answer them with where the secret goes instead.
    "access-token": { type: "string" },
    "app-secret": { type: "string" },
    "verify-token": { type: "string" },
  },
  prepare(args, flags, env) {
    const [action] = args;
    if (action !== "show" && action !== "set" && action !== "remove") unknownAction(whatsappCommand, action);
    noExtraArguments(args, 1);
    const workspaceId = required(flags.workspace, "workspace");
    if (action === "set") {
      const input = channelInput(workspaceId, flags, env);
      return async (ctx) => {
        const { channel, verifyToken } = await ctx.vitrina.whatsapp.channels.put(input).catch((error: unknown) => {
          throw inCommandLineTerms(error, TYPED_AS);
        });
        printChannel(ctx, channel, verifyToken);
        if (verifyToken !== null)
          printNote(
            ctx.out,
            "The verify token above is shown once. Paste it and the webhook URL into the Meta app's WhatsApp webhook settings now.",
          );
      };
    }
    if (action === "remove") {
      return async (ctx) => {
        await ctx.vitrina.whatsapp.channels.remove(workspaceId);
        printRecord(ctx.out, { workspace_id: workspaceId, removed: true });
      };
    }
    return async (ctx) => {
      const channel = await ctx.vitrina.whatsapp.channels.get(workspaceId);
      if (channel === null)
        throw new VitrinaError(
          "not_found",
          `workspace ${workspaceId} has no WhatsApp channel; set one up with vitrina whatsapp set`,
        );
      printChannel(ctx, channel, null);
    };
  },
};

/** The service's input from the flags and the environment; secrets passed as flags are usage errors naming their variable. */
function channelInput(
  workspaceId: string,
  flags: Flags,
  env: Record<string, string | undefined>,
): WhatsAppChannelInput {
  for (const [flag, field] of Object.entries(SECRET_FLAGS))
    if (flags[flag] !== undefined)
      throw new UsageError(
        `--${flag} would put a secret in the command line (visible in ps and shell history); set ${SECRET_ENV[field]} instead`,
        `--${flag}`,
      );
  const secret = (field: keyof typeof SECRET_ENV) => {
    const value = env[SECRET_ENV[field]];
    return value === undefined || value === "" ? {} : { [field]: value };
  };
  if (flags["receive-only"] === true && secret("accessToken").accessToken !== undefined)
    throw new UsageError(
      `--receive-only drops the access token, but ${SECRET_ENV.accessToken} is set: choose one`,
      "--receive-only",
    );
  return {
    workspaceId,
    phoneNumberId: required(flags["phone-number-id"], "phone-number-id"),
    ...secret("appSecret"),
    ...secret("verifyToken"),
    ...(flags["receive-only"] === true ? { accessToken: null } : secret("accessToken")),
    ...(typeof flags["graph-url"] === "string" && { graphBaseUrl: flags["graph-url"] }),
    ...(typeof flags["api-version"] === "string" && { apiVersion: flags["api-version"] }),
  };
}

/** The channel, where the provider must send webhooks, and a generated verify token when there is one. */
function printChannel(ctx: CliContext, channel: WhatsAppChannelView, verifyToken: string | null): void {
  const webhookUrl =
    publicAddress(ctx, WHATSAPP_WEBHOOK_PATH) ??
    `<your public URL>${ctx.vitrina.whatsapp.webhookPath} (set publicUrl in vitrina.config.mjs)`;
  const extra = { ...(verifyToken !== null && { verify_token: verifyToken }), webhook_url: webhookUrl };
  if (ctx.out.json) return printJson(ctx.out, { channel, ...extra });
  printRecord(ctx.out, { ...channel, ...extra });
}
