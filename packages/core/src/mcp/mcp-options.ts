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
  /** Issues quotes for `create_quote`; wired to `vitrina.quotes` once the quote operation lands. */
  quotes?: QuoteOperations;
  /** Prices `create_quote` lines; wired to the catalog (`storage.catalogItems`) once it lands. */
  prices?: PriceLookup;
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

/** A stored quote, as core's quote operation returns it (server-computed line totals, VAT and total). */
export interface IssuedQuote {
  id: string;
  contactId: string;
  conversationId: string | null;
  currency: string;
  items: Array<{ sku: string; quantity: number; unitPrice: number; lineTotal: number }>;
  subtotal: number;
  vatRate: number;
  vat: number;
  total: number;
  createdAt: string;
}

/**
 * Issues a quote from priced lines: computes line totals, VAT and total, stores it and emits
 * `quote.created` in one transaction. `vitrina.quotes` (core's quote operation) fits.
 */
export interface QuoteOperations {
  create(input: {
    workspaceId: string;
    contactId: string;
    conversationId: string | null;
    items: Array<{ sku: string; quantity: number; unitPrice: number }>;
  }): Promise<IssuedQuote>;
}

/** The catalog price of one SKU (an item or a variant) in the workspace, or null when unknown or unpriced. */
export type PriceLookup = (workspaceId: string, sku: string) => Promise<{ unitPrice: number; name: string | null } | null>;
