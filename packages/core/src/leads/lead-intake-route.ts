import { VitrinaError } from "../errors.js";
import type { LeadIntake, LeadIntakeResponse } from "./lead-intake.js";
import { CONNECTOR_ID_PATTERN } from "./verify-lead-signature.js";
import type { Logger } from "../ports/logger.js";
import type { LeadRefusalRecorder } from "./lead-refusals.js";
import { observeLeadIntake } from "./lead-telemetry.js";
import type { Route } from "../http/router.js";
import { jsonResponseTo, statusForCode } from "../http/json.js";
import { readBodyLimited } from "../http/read-body.js";
import { requireJsonContentType } from "../http/read-json.js";
import { leadIntakeOperation } from "./lead-intake-doc.js";

/** Where senders post signed leads, under the mount. */
export const LEAD_INTAKE_PATH = "/functions/v1/lead-intake";

export interface LeadIntakeRouteOptions {
  intake: LeadIntake;
  maxBodyBytes: number;
  headerNames: { connectorId: string; timestamp: string; signature: string };
  /** Records each refusal of a known connector for its integrator (see `lead-refusals.ts`). */
  refusals?: LeadRefusalRecorder;
}

/**
 * The connector id as logged: only when shaped like one, since a misconfigured CRM may put
 * anything in that header, its secret included.
 */
function loggableConnectorId(header: string | null): string | null {
  if (header === null || header === "") return null;
  return CONNECTOR_ID_PATTERN.test(header) ? header.toLowerCase() : "(malformed)";
}

/**
 * One warn line per refused lead, so an operator can tell a CRM why it gets 401s or 422s: the
 * code, the connector and the names of the fields at fault, never the body or a header's secret.
 */
function logRejection(logger: Logger, error: unknown, connectorId: string | null, refusal?: string): void {
  const code = error instanceof VitrinaError ? error.code : "internal";
  const fields = error instanceof VitrinaError ? error.reasons.map((reason) => reason.field) : [];
  logger.warn(
    {
      code,
      status: statusForCode(code),
      connectorId,
      ...(fields.length > 0 ? { fields } : {}),
      ...(refusal !== undefined && { refusal }),
    },
    "lead rejected",
  );
}

function logAcceptance(logger: Logger, result: LeadIntakeResponse, connectorId: string | null): void {
  logger.info(
    { connectorId, leadEventId: result.lead_event_id, duplicate: result.duplicate, outbound: result.outbound.status },
    result.duplicate ? "lead accepted again (duplicate)" : "lead accepted",
  );
}

/** `POST /functions/v1/lead-intake`: 200 with the intake response, a duplicate included. */
export function leadIntakeRoute(options: LeadIntakeRouteOptions): Route {
  const { headerNames: names } = options;
  return {
    method: "POST",
    path: LEAD_INTAKE_PATH,
    // Reads the body through readBodyLimited only, and hands the request to nothing outside core.
    readsBodyDirectly: true,
    openapi: leadIntakeOperation,
    async handler(request, _params, { logger, requestId }) {
      const connectorId = request.headers.get(names.connectorId);
      try {
        // Observed here rather than in the intake so refusals of the body (413, 415) count too.
        const result = await observeLeadIntake(async () => {
          // Decoded by the intake after the signature is checked over these exact bytes.
          await requireJsonContentType(request);
          const body = await readBodyLimited(request, options.maxBodyBytes);
          const signature = {
            connectorId,
            timestamp: request.headers.get(names.timestamp),
            signature: request.headers.get(names.signature),
          };
          return options.intake.receive(signature, body, logger);
        });
        logAcceptance(logger, result, loggableConnectorId(connectorId));
        return jsonResponseTo(request, result);
      } catch (error) {
        const refusal = await options.refusals?.record(
          error,
          {
            connectorIdHeader: connectorId,
            timestampHeader: request.headers.get(names.timestamp),
            signatureMissing: !request.headers.get(names.signature),
            headerNames: names,
            requestId: requestId ?? null,
          },
          logger,
        );
        logRejection(logger, error, loggableConnectorId(connectorId), refusal);
        throw error;
      }
    },
  };
}
