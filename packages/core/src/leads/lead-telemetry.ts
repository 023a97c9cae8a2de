import { VitrinaError } from "../errors.js";
import { statusForCode } from "../http/json.js";
import { instruments } from "../telemetry/metrics.js";
import { errorType, withSpan } from "../telemetry/tracing.js";

export type LeadOutcome = "accepted" | "duplicate" | "rejected" | "failed";

/** A refusal of what the sender sent (4xx) is `rejected`; our outage or bug (5xx) is `failed`. */
function failureOutcome(error: unknown): LeadOutcome {
  return error instanceof VitrinaError && statusForCode(error.code) < 500 ? "rejected" : "failed";
}

/**
 * Runs one lead intake request in the `vitrina.lead.intake` span and counts it in `vitrina.leads`
 * by outcome and `error.type`. The intake adds the connector and workspace ids to the span once
 * the signature is verified; nothing from the lead itself is recorded.
 */
export function observeLeadIntake<T extends { duplicate: boolean }>(receive: () => Promise<T>): Promise<T> {
  return withSpan("vitrina.lead.intake", {}, async (span) => {
    try {
      const result = await receive();
      const outcome: LeadOutcome = result.duplicate ? "duplicate" : "accepted";
      span.setAttribute("vitrina.lead.outcome", outcome);
      instruments().leads.add(1, { "vitrina.lead.outcome": outcome });
      return result;
    } catch (error) {
      const outcome = failureOutcome(error);
      span.setAttribute("vitrina.lead.outcome", outcome);
      instruments().leads.add(1, { "vitrina.lead.outcome": outcome, "error.type": errorType(error) });
      throw error;
    }
  });
}
