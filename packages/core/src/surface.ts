import type { Route } from "./http/router.js";
import type { RetentionStep } from "./maintenance/retention.js";
/** What an optional surface (OAuth, REST, MCP, A2A, console, health) gives the composition root. */
export interface Surface {
  routes: Route[];
  retentionSteps?: RetentionStep[];
  wellKnownPaths?: string[];
}
