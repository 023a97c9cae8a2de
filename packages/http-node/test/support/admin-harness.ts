import { serve } from "@vitrina/http-node";
import { startAdminHarness as startInProcess } from "../../../core/test/support/admin-harness.js";

export type { AdminHarness } from "../../../core/test/support/admin-harness.js";

/** Core's admin harness served on 127.0.0.1:0: for tests that need its URL (a browser's cookies, forms). */
export const startAdminHarness = (options: Parameters<typeof startInProcess>[0] = {}) =>
  startInProcess({ ...options, listen: (handler) => serve(handler, { port: 0, handleSignals: false }) });
