import type { CapabilityDescriptor } from "../capabilities/definition.js";

/**
 * Who is calling, once the bearer token is resolved. API keys (webhooks branch, `core/src/auth/`)
 * and, later, OAuth 2.1 access tokens both resolve to this shape, so the MCP server never knows
 * which kind of token it was given.
 */
export interface Principal {
  workspaceId: string;
  /** The API key id (or the OAuth grant id); recorded as the actor of what the call changes. */
  keyId: string;
  scopes: string[];
}

/**
 * Resolves `Authorization: Bearer <token>` to a principal, or `null` when the header is missing,
 * malformed, unknown, revoked or expired. It never throws for a bad credential: the MCP route
 * answers 401 with the discovery header in every such case.
 */
export type Authenticator = (request: Request) => Promise<Principal | null>;

/** Until an authenticator is configured, nobody gets in (fail closed, never open). */
export const rejectEveryone: Authenticator = async () => null;

/** The token after `Bearer `, or null. Scheme match is case-insensitive (RFC 7235). */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header === null ? null : /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** What a tool needs, in the capability descriptor's terms: `anyOf` one listed scope, `allOf` all. */
export type ScopeRequirement = Pick<CapabilityDescriptor, "requiredScopes" | "scopeMatch">;

/**
 * A fixed table of tokens, for tests, demos and embedders with their own key store. Tokens are
 * compared as map keys; prefer the hashed API keys of `core/src/auth/` in production.
 */
export function staticTokenAuthenticator(tokens: Record<string, Principal>): Authenticator {
  const table = new Map(Object.entries(tokens));
  return async (request) => {
    const token = bearerToken(request);
    return token === null ? null : (table.get(token) ?? null);
  };
}
