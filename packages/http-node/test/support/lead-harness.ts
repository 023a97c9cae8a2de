import { serve } from "@vitrina/http-node";
import { startLeadHarness as startInProcess } from "../../../core/test/support/lead-harness.js";

export { sampleLead, TEST_SECRET_BOX_KEY, type LeadHarness } from "../../../core/test/support/lead-harness.js";

/** Core's lead harness served on 127.0.0.1:0: for tests of what the Node binding does with the requests. */
export const startLeadHarness = (options: Parameters<typeof startInProcess>[0] = {}) =>
  startInProcess({ ...options, listen: (handler) => serve(handler, { port: 0, handleSignals: false }) });
