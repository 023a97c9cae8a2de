import type { Authenticator, Principal } from "./authenticator.js";

/** The options an embedder passes as `createVitrina({ mcp: { … } })`. */
export interface McpOptions {
  /**
   * Resolves the bearer token. Default: nobody is let in until API keys (or OAuth) are wired;
   * use `staticTokenAuthenticator` for demos and tests.
   */
  authenticate?: Authenticator;
  /**
   * Browser origins allowed to call `/mcp` (exact `scheme://host[:port]`). A request without an
   * `Origin` header (CLI, desktop and server clients) is always allowed; any other origin gets 403,
   * which is what stops DNS-rebinding attacks on a server bound to localhost. Default: none.
   */
  allowedOrigins?: string[];
  /** `create_quote` answers a tool error until this is true (spec: financial tools disabled in V1). */
  enableFinancialTools?: boolean;
  /**
   * Also list the canonical capability names as tools: `underscore` (`inventory_check`) or
   * `dotted` (`inventory.check`). Default `none`: exactly the 8 tools of the spec.
   */
  canonicalToolNames?: "none" | "underscore" | "dotted";
  /** Public base URL (`https://api.example.com`) for `resource_metadata`; default: the request's origin. */
  publicBaseUrl?: string;
  /** Largest JSON-RPC body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * The capability runtime the tools call and whose descriptors they publish. Wired by
   * `createVitrina` to `vitrina.capabilities` once the registry lands; until then an embedder (or
   * a test) passes one.
   */
  capabilities?: CapabilitySource;
  /** Creates priced quotes (`create_quote`); wired to the quote operation of core once it lands. */
  quotes?: QuoteOperations;
}

export const DEFAULT_MCP_BODY_LIMIT = 1024 * 1024;

/** The parts of a capability descriptor (spec: Capability descriptor) the MCP tools are built from. */
export interface McpCapabilityDescriptor {
  name: string;
  version: string;
  summary: string;
  riskClass: "read" | "write";
  requiredScopes: string[];
  scopeMatch: "anyOf" | "allOf";
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  idempotency: { required: boolean };
}

/**
 * The agent runtime as the MCP tools use it: same validation, scopes and provenance as any agent,
 * and the registry's descriptors so every schema is written once. `vitrina.capabilities` fits.
 */
export interface CapabilitySource {
  invoke(
    name: string,
    input: unknown,
    context: { principal: Principal & { actorId?: string }; idempotencyKey?: string },
  ): Promise<{ output: unknown; provenance: unknown }>;
  descriptor(name: string): McpCapabilityDescriptor | undefined;
}

export interface QuoteLineView {
  sku: string;
  name: string | null;
  quantity: number;
  unit_price: number;
  line_total: number;
}

/** A stored quote as `create_quote` returns it; VAT and totals are computed by the quote operation. */
export interface QuoteView {
  quote_id: string;
  currency: string;
  items: QuoteLineView[];
  subtotal: number;
  vat_rate: number;
  vat: number;
  total: number;
  created_at: string;
}

export interface QuoteOperations {
  /**
   * Prices each line from the workspace catalog, computes VAT and total, stores the quote and
   * emits `quote.created`, in one transaction. Throws `not_found` for an unknown sku.
   */
  create(input: { workspaceId: string; createdBy: string; items: Array<{ sku: string; quantity: number }> }): Promise<QuoteView>;
}
