import type { CapabilityService } from "../capabilities/capability-service.js";
import type { Authenticator } from "../auth/authenticators.js";

/** Where `createVitrina` serves MCP, under the mount. */
export const MCP_PATH = "/mcp";

/** The options an embedder passes as `createVitrina({ mcp: { … } })`. */
export interface McpOptions {
  /**
   * Resolves the bearer token. Default: nobody is let in until API keys (or OAuth) are wired;
   * use `staticTokenAuthenticator` for demos and tests.
   */
  authenticate?: Authenticator;
  /**
   * Browser origins allowed to call `/mcp` (exact `scheme://host[:port]`), besides the server's
   * own origin, which is always allowed: `publicBaseUrl`'s origin when set, else the request's
   * own origin when its host is `localhost` or an IP address. A request without an `Origin`
   * header (CLI, desktop and server clients) is always allowed; any other origin gets 403, which
   * is what stops DNS-rebinding attacks on a server bound to localhost. Default: none.
   */
  allowedOrigins?: string[];
  /** `create_quote` answers a tool error until this is true (spec: financial tools disabled in V1). */
  enableFinancialTools?: boolean;
  /**
   * Also list the canonical capability names as tools: `underscore` (`inventory_check`) or
   * `dotted` (`inventory.check`). Default `none`: exactly the 8 tools of the spec.
   */
  canonicalToolNames?: "none" | "underscore" | "dotted";
  /**
   * Public base URL (`https://api.example.com`): its origin is the server's own origin for the
   * `Origin` check. Set it when browsers reach the server by a DNS name (a DNS name in the Host
   * header is not trusted, see `allowedOrigins`).
   */
  publicBaseUrl?: string;
  /** Largest JSON-RPC body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Issues quotes for `create_quote`; defaults to `vitrina.quotes` (core's quote operation). */
  quotes?: QuoteOperations;
  /** Prices `create_quote` lines. Default: the workspace catalog (`catalogPriceLookup`). */
  prices?: PriceLookup;
}

export const DEFAULT_MCP_BODY_LIMIT = 1024 * 1024;

/**
 * The agent runtime and registry as the MCP tools use them: `invoke` (same validation, scopes and
 * provenance as any agent) and `descriptor` (schemas and scopes written once, in the registry).
 */
export type CapabilitySource = Pick<CapabilityService, "invoke" | "descriptor">;

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
export type PriceLookup = (
  workspaceId: string,
  sku: string,
) => Promise<{ unitPrice: number; name: string | null } | null>;
