import { LeadIntakeError, sendLead, type LeadPayload } from "@vitrina/client";
import { VitrinaError } from "@vitrina/core";
import { noExtraArguments, required, unknownAction, UsageError, type CliCommand } from "./command.js";
import { printRecord } from "./output.js";
import { LEAD_INTAKE_PATH, publicBase } from "./public-address.js";

/** Where `leads send` reads the connector's secret: never a flag, which `ps` and shell history show. */
export const CONNECTOR_SECRET_ENV = "VITRINA_CONNECTOR_SECRET";

/**
 * `vitrina leads send`: signs a sample lead with a connector's secret and posts it to the intake URL,
 * as a CRM would (with `@vitrina/client`'s `sendLead`). Talks HTTP only, so it works against a running
 * server whatever its storage; it opens none.
 */
export const leadsCommand: CliCommand = {
  name: "leads",
  summary: "sign and send a sample lead with a connector's secret",
  usage: `vitrina leads send --connector <id> [--url <lead intake URL>] [--phone <E.164>] [--name <name>]
the secret is read from ${CONNECTOR_SECRET_ENV}, never from a flag; the URL defaults to the config's publicUrl (+ basePath)`,
  flags: {
    connector: { type: "string" },
    url: { type: "string" },
    phone: { type: "string" },
    name: { type: "string" },
    secret: { type: "string" },
  },
  async runWithSetup(setup, args, flags) {
    if (args[0] !== "send") unknownAction(leadsCommand, args[0]);
    noExtraArguments(args, 1);
    if (flags.secret !== undefined)
      throw new UsageError(
        `--secret is not accepted (the command line shows in ps and shell history); set ${CONNECTOR_SECRET_ENV}`,
        "--secret",
      );
    const connectorId = required(flags.connector, "connector");
    const secret = setup.env[CONNECTOR_SECRET_ENV];
    if (secret === undefined || secret === "")
      throw new UsageError(
        `set ${CONNECTOR_SECRET_ENV} to the connector's secret (shown once when it was created or rotated)`,
        CONNECTOR_SECRET_ENV,
      );
    const url = intakeUrl(flags.url, setup.config);
    const lead = sampleLead(flags);
    try {
      const accepted = await sendLead(url, {
        connectorId,
        secret,
        lead,
        headerPrefix: setup.config.headerPrefix ?? "Vitrina",
      });
      printRecord(setup.out, { url, source_lead_id: lead.source_lead_id, ...accepted });
    } catch (error) {
      if (!(error instanceof LeadIntakeError)) throw error;
      // The server's refusal, with its code and the fields at fault, in the CLI's error format.
      throw new VitrinaError(
        "invalid_argument",
        `${url} refused the lead: ${error.status} ${error.code}: ${error.message}`,
        {
          reasons: error.reasons,
          cause: error,
        },
      );
    }
  },
};

function intakeUrl(flag: unknown, config: { publicUrl?: string; basePath?: string }): string {
  if (typeof flag === "string") {
    try {
      return new URL(flag).href;
    } catch {
      throw new UsageError(
        `--url must be an absolute URL such as https://api.example.com/functions/v1/lead-intake (got "${flag}")`,
        "--url",
      );
    }
  }
  if (config.publicUrl === undefined)
    throw new UsageError("pass --url (the lead intake URL) or set publicUrl in vitrina.config.mjs", "--url");
  return `${publicBase(config.publicUrl, config.basePath ?? "")}${LEAD_INTAKE_PATH}`;
}

/** A lead as a CRM sends it: a new `source_lead_id` each time, consent given just now. */
function sampleLead(flags: Record<string, unknown>): LeadPayload {
  return {
    event: "lead.created",
    source_lead_id: `vitrina-cli-sample-${Date.now()}`,
    contact: {
      phone_e164: typeof flags.phone === "string" ? flags.phone : "+56911112222",
      name: typeof flags.name === "string" ? flags.name : "María Sample",
      email: "maria.sample@example.com",
    },
    context: { source: "vitrina-cli" },
    whatsapp_consent: { granted: true, timestamp: new Date().toISOString(), source: "form" },
  };
}
