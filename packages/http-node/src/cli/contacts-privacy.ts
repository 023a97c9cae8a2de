import { createWriteStream } from "node:fs";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { inCommandLineTerms, required, UsageError, type CliAction, type Flags } from "./command.js";
import { printNote, printRecord } from "./output.js";

/** The flags that name the person, and the lookup field each fills. */
const LOOKUP_FLAGS = { contact: "contact_id", phone: "phone", email: "email", "whatsapp-user-id": "whatsapp_user_id" };
const TYPED_AS: Record<string, string> = Object.fromEntries(
  Object.entries(LOOKUP_FLAGS).map(([flag, field]) => [field, `--${flag}`]),
);

/** The lookup of exactly one naming flag; a usage error otherwise. */
function lookupOf(flags: Flags): Record<string, string> {
  const given = Object.entries(LOOKUP_FLAGS).filter(([flag]) => flags[flag] !== undefined);
  if (given.length !== 1)
    throw new UsageError(
      "name the person with exactly one of --contact, --phone, --email or --whatsapp-user-id",
      "--contact",
    );
  const [[flag, field]] = given as [[string, string]];
  return { [field]: required(flags[flag], flag) };
}

/**
 * `contacts export`: everything held about the person as one JSON document, streamed to `--out` or
 * to standard output page by page (a long history never sits in memory).
 */
export function exportAction(workspaceId: string, flags: Flags): CliAction {
  const lookup = lookupOf(flags);
  const out = typeof flags.out === "string" && flags.out !== "" ? flags.out : null;
  return async (ctx) => {
    const stream = await ctx.vitrina.privacy
      .find(workspaceId, lookup)
      .then((contact) => ctx.vitrina.privacy.exportContact(workspaceId, contact.id))
      .catch((error: unknown) => {
        throw inCommandLineTerms(error, TYPED_AS);
      });
    const target: Writable = out === null ? ctx.out.stdout : createWriteStream(out, { flags: "wx" });
    await pipeline(Readable.fromWeb(stream as never), target, { end: out !== null });
    if (out !== null) printNote(ctx.out, `Written to ${out}.`);
  };
}

/**
 * `contacts erase`: erases the person (see docs/interface.md) after `--yes`, and prints the erasure
 * record: its id, time and counts per kind, no personal data. Recorded as asked by `cli`.
 */
export function eraseAction(workspaceId: string, flags: Flags): CliAction {
  const lookup = lookupOf(flags);
  if (flags.yes !== true) throw new UsageError("erasure can't be undone: add --yes to confirm", "--yes");
  return async (ctx) => {
    const record = await ctx.vitrina.privacy
      .find(workspaceId, lookup)
      .then((contact) => ctx.vitrina.privacy.eraseContact({ workspaceId, contactId: contact.id, requestedBy: "cli" }))
      .catch((error: unknown) => {
        throw inCommandLineTerms(error, TYPED_AS);
      });
    printRecord(ctx.out, { ...record });
  };
}
