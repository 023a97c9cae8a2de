import type { AvailabilityStatus, CapabilityDescriptor } from "./definition.js";

export const CATALOG_DOCUMENT_VERSION = "0.1.0";

export interface SurfaceStatus {
  surface: string;
  status: AvailabilityStatus;
  detail: string;
}

/** The spec's surfaces table, word for word. */
export const SURFACES: readonly SurfaceStatus[] = [
  { surface: "Agent Runtime", status: "AVAILABLE", detail: "6 canonical capabilities are active" },
  { surface: "MCP", status: "AVAILABLE", detail: "8 tools; financial tools are disabled in V1" },
  {
    surface: "Outgoing webhooks",
    status: "AVAILABLE",
    detail: "Outbox with HMAC signature, retries with backoff, delivery attempts every 30 seconds",
  },
  {
    surface: "REST API",
    status: "PLANNED",
    detail: "Will expose the same capability core; private preview before general access",
  },
  {
    surface: "A2A / UCP / AP2",
    status: "PLANNED",
    detail: "Will converge on the same capability core when the standard justifies it",
  },
];

/** How an MCP client reaches the server (spec: MCP server table). */
export interface McpServerInfo {
  /** Absolute when the embedder configured a public base URL, else the path on this host. */
  url: string;
  transport: "streamable-http";
  protocolVersion: "2025-06-18";
  name: string;
  version: "1.0.0";
  tools: number;
  /** Server-to-client SSE streaming is not served in this version. */
  streaming: false;
  authentication: Array<"oauth2" | "api_key">;
}

export interface CatalogDocument {
  version: string;
  /** When the registry last changed: stable while it doesn't, so caches and ETags hold. */
  generatedAt: string;
  capabilities: CapabilityDescriptor[];
  surfaces: SurfaceStatus[];
  mcpServer: McpServerInfo;
}

export interface CatalogDocumentOptions {
  /** Where the MCP server is served: a path (`/mcp`, the default) or an absolute URL. */
  mcpUrl: string;
  /** MCP server name, the service's short name. Default `vitrina`. */
  mcpServerName: string;
  /** Set when the REST surface is on: the surface is AVAILABLE, and so is every capability's `rest`. */
  rest?: { url: string };
  /** Set when the A2A surface is on: the endpoint's URL; A2A gets a row of its own, AVAILABLE. */
  a2a?: { url: string; cardUrl: string };
}

/** The REST row of the surfaces table once an embedder turns REST on. */
const restAvailable = (url: string): SurfaceStatus => ({
  surface: "REST API",
  status: "AVAILABLE",
  detail: `Every capability at ${url}/{capability}, on the same capability core; described by /v1/openapi.json`,
});

/**
 * The A2A / UCP / AP2 row once an embedder turns A2A on: A2A is AVAILABLE in a row of its own,
 * UCP and AP2 stay in the planned row.
 */
const a2aAvailable = (planned: SurfaceStatus, a2a: { url: string; cardUrl: string }): SurfaceStatus[] => [
  {
    surface: "A2A",
    status: "AVAILABLE",
    detail: `Agent card at ${a2a.cardUrl}; SendMessage at ${a2a.url}, one skill per capability, on the same capability core`,
  },
  { ...planned, surface: "UCP / AP2" },
];

export function buildCatalogDocument(
  descriptors: CapabilityDescriptor[],
  generatedAt: string,
  options: CatalogDocumentOptions,
): CatalogDocument {
  return {
    version: CATALOG_DOCUMENT_VERSION,
    generatedAt,
    capabilities: structuredClone(descriptors).map((d) =>
      options.rest === undefined ? d : { ...d, surfaces: { ...d.surfaces, rest: "AVAILABLE" as const } },
    ),
    surfaces: SURFACES.flatMap((s) => {
      if (options.rest !== undefined && s.surface === "REST API") return [restAvailable(options.rest.url)];
      if (options.a2a !== undefined && s.surface === "A2A / UCP / AP2") return a2aAvailable(s, options.a2a);
      return [{ ...s }];
    }),
    mcpServer: {
      url: options.mcpUrl,
      transport: "streamable-http",
      protocolVersion: "2025-06-18",
      name: options.mcpServerName,
      version: "1.0.0",
      tools: 8,
      streaming: false,
      authentication: ["oauth2", "api_key"],
    },
  };
}
