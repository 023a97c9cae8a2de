/** `createVitrina({ a2a: { … } })`: the A2A (Agent2Agent v1.0) surface over the capability runtime. Off unless enabled. */
export interface A2aOptions {
  /** Serves the agent card and `SendMessage` at `/a2a`, and reports A2A as AVAILABLE in the catalog. */
  enabled: boolean;
  /** The agent card's `name`. Default `Vitrina`. */
  name?: string;
  /** The agent card's `description`. Default: a sentence naming what the skills are. */
  description?: string;
}

/** Where the JSON-RPC endpoint lives, under the handler's basePath. */
export const A2A_PATH = "/a2a";

/** Where A2A clients look for the card: the origin's well-known path (RFC 8615), whatever the mount. */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json";

/** The one protocol version served; a request's `A2A-Version` header must name it. */
export const A2A_PROTOCOL_VERSION = "1.0";

/**
 * The extension the card declares: a skill is called with one JSON data part `{ capability, input }`,
 * whose schemas the catalog publishes (A2A skills carry none). A URN: an identifier, not a page.
 */
export const CAPABILITY_CALL_EXTENSION = "urn:vitrina:a2a:capability-call:v1";
