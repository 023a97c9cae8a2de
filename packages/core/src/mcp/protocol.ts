import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

/** The MCP revision this server implements (spec: Versioning). */
export const MCP_PROTOCOL_VERSION = "2025-06-18";
export const MCP_SERVER_INFO = { name: "vitrina", version: "1.0.0" } as const;

/**
 * Revisions we answer in: 2025-06-18 and the older ones the SDK still speaks. Dates compare as
 * strings. Newer revisions the SDK knows (2025-11-25) are left out on purpose: we would be
 * claiming behaviour (tasks, SSE resumption) this server does not promise.
 */
export const ACCEPTED_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS.filter(
  (version) => version <= MCP_PROTOCOL_VERSION,
);

/**
 * What to answer an `initialize` asking for `requested`: the same revision when it is one we
 * accept (an older client keeps working), else 2025-06-18 and the client decides whether it can
 * speak it (MCP lifecycle: version negotiation). The SDK alone would answer its newest revision.
 */
export function negotiateProtocolVersion(requested: unknown): string {
  return typeof requested === "string" && ACCEPTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : MCP_PROTOCOL_VERSION;
}

/**
 * Checks the `MCP-Protocol-Version` header. Absent is fine: the spec (2025-06-18, transports,
 * backwards compatibility) says to assume 2025-03-26 then, which we accept.
 */
export function isAcceptedProtocolHeader(value: string | null): boolean {
  return value === null || ACCEPTED_PROTOCOL_VERSIONS.includes(value);
}
