import type { LeadIntake } from "../leads/lead-intake.js";
import { observeLeadIntake } from "../telemetry/lead-telemetry.js";
import type { Route } from "./router.js";
import { jsonResponse } from "./json.js";
import { readBodyLimited } from "./read-body.js";
import { requireJsonContentType } from "./read-json.js";

export interface LeadIntakeRouteOptions {
  intake: LeadIntake;
  maxBodyBytes: number;
  headerNames: { connectorId: string; timestamp: string; signature: string };
}

/** `POST /functions/v1/lead-intake`: 200 with the intake response, a duplicate included. */
export function leadIntakeRoute(options: LeadIntakeRouteOptions): Route {
  const { headerNames: names } = options;
  return {
    method: "POST",
    path: "/functions/v1/lead-intake",
    async handler(request) {
      // Observed here rather than in the intake so refusals of the body (413, 415) count too.
      const result = await observeLeadIntake(async () => {
        // Decoded by the intake after the signature is checked over these exact bytes.
        await requireJsonContentType(request);
        const body = await readBodyLimited(request, options.maxBodyBytes);
        return options.intake.receive(
          {
            connectorId: request.headers.get(names.connectorId),
            timestamp: request.headers.get(names.timestamp),
            signature: request.headers.get(names.signature),
          },
          body,
        );
      });
      return jsonResponse(result);
    },
  };
}
