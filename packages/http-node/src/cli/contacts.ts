import type { ContactRecord } from "@vitrina/core";
import {
  inCommandLineTerms,
  noExtraArguments,
  positiveInteger,
  required,
  unknownAction,
  UsageError,
  type CliAction,
  type CliCommand,
  type Flags,
} from "./command.js";
import { printList, printRecord } from "./output.js";
import { eraseAction, exportAction } from "./contacts-privacy.js";

/** What the person at the console typed for the service's fields, to name it in a refusal. */
const TYPED_AS: Record<string, string> = { phoneE164: "--phone", contactId: "--contact", note: "--note" };
/** The most ledger entries one call returns (the contact service's cap). */
const MAX_LEDGER_ENTRIES = 200;

/**
 * Contacts' WhatsApp consent: record an opt-out asked for off the channel, read the consent ledger.
 * The ledger names the CLI as `source: "service"` with `sourceRef: "cli"`: the console's sources
 * are for signed-in users and API keys, and the CLI is the operator acting with storage access.
 */
export const contactsCommand: CliCommand = {
  name: "contacts",
  summary: "opt a contact out of WhatsApp, show a contact's consent ledger, export or erase a person's data",
  usage: `vitrina contacts opt-out --workspace <id> (--contact <contactId> | --phone <+E164>) [--note <text>]
vitrina contacts consent --workspace <id> --contact <contactId> [--limit 1..${MAX_LEDGER_ENTRIES}]
vitrina contacts export --workspace <id> (--contact <id> | --phone <+E164> | --email <address> | --whatsapp-user-id <id>) [--out <file>]
vitrina contacts erase --workspace <id> (--contact <id> | --phone <+E164> | --email <address> | --whatsapp-user-id <id>) --yes`,
  flags: {
    workspace: { type: "string" },
    contact: { type: "string" },
    phone: { type: "string" },
    note: { type: "string" },
    limit: { type: "string" },
    email: { type: "string" },
    "whatsapp-user-id": { type: "string" },
    out: { type: "string" },
    yes: { type: "boolean" },
  },
  prepare(args, flags) {
    const [action] = args;
    if (action !== "opt-out" && action !== "consent" && action !== "export" && action !== "erase")
      unknownAction(contactsCommand, action);
    noExtraArguments(args, 1);
    const workspaceId = required(flags.workspace, "workspace");
    if (action === "export") return exportAction(workspaceId, flags);
    if (action === "erase") return eraseAction(workspaceId, flags);
    if (action === "opt-out") return optOut(workspaceId, flags);
    const contactId = required(flags.contact, "contact");
    const limit = positiveInteger(flags.limit, "limit", MAX_LEDGER_ENTRIES);
    return async (ctx) => {
      const entries = await ctx.vitrina.contacts.consentLedger(workspaceId, contactId, limit ? { limit } : {});
      printList(ctx.out, entries, [
        ["OCCURRED", (e) => e.occurredAt],
        ["KIND", (e) => e.kind],
        ["SOURCE", (e) => e.source],
        ["SOURCE REF", (e) => e.sourceRef],
        ["EVIDENCE", (e) => e.evidence],
      ]);
    };
  },
};

function optOut(workspaceId: string, flags: Flags): CliAction {
  if ((flags.contact === undefined) === (flags.phone === undefined))
    throw new UsageError("name the contact with exactly one of --contact or --phone", "--contact");
  const requestedBy = {
    workspaceId,
    source: "service" as const,
    sourceRef: "cli",
    ...(typeof flags.note === "string" && { note: flags.note }),
  };
  const byId = flags.contact === undefined ? null : required(flags.contact, "contact");
  const phone = byId === null ? required(flags.phone, "phone") : null;
  return async (ctx) => {
    const contact: ContactRecord = await (
      byId !== null
        ? ctx.vitrina.contacts.optOutContact({ ...requestedBy, contactId: byId })
        : ctx.vitrina.contacts.optOutOfWhatsApp({ ...requestedBy, phoneE164: phone! })
    ).catch((error: unknown) => {
      throw inCommandLineTerms(error, TYPED_AS);
    });
    const { id, name, phoneE164, whatsappOptedOutAt } = contact;
    if (ctx.out.json) printRecord(ctx.out, { ...contact });
    else printRecord(ctx.out, { id, name, phone_e164: phoneE164, whatsapp_opted_out_at: whatsappOptedOutAt });
  };
}
