import type { LeadIntake } from "../leads/lead-intake.js";
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
      // Decoded by the intake after the signature is checked over these exact bytes.
      await requireJsonContentType(request);
      const body = await readBodyLimited(request, options.maxBodyBytes);
      const result = await options.intake.receive(
        {
          connectorId: request.headers.get(names.connectorId),
          timestamp: request.headers.get(names.timestamp),
          signature: request.headers.get(names.signature),
        },
        body,
      );
      return jsonResponse(result);
    },
  };
}
