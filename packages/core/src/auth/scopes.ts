import { InsufficientScopeError } from "../errors.js";

/**
 * Scopes an API key (and later an OAuth token) can carry. The first five are the capability
 * scopes of the spec; `conversations:write` and `quotes:write` guard the MCP tools `send_message`
 * and `create_quote`; `webhooks:*` guard the subscription API; `admin:read` and `admin:write` let an
 * API key use the admin API (connectors, API keys, members) as a workspace member or admin would.
 */
export const SCOPES = [
  "catalog:read",
  "customers:read",
  "customers:write",
  "conversations:read",
  "conversations:write",
  "inventory:read",
  "quotes:write",
  "webhooks:read",
  "webhooks:write",
  "admin:read",
  "admin:write",
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * What an operation needs: `anyOf` one listed scope, `allOf` all. Capability descriptors carry
 * these fields; auth owns the type so that it never reaches up into the capability layer.
 */
export interface ScopeRequirement {
  requiredScopes: readonly string[];
  scopeMatch: "anyOf" | "allOf";
}

/** Anything holding scopes: a principal, or the capability runtime's view of one. */
export interface ScopeHolder {
  scopes: readonly string[];
}

/** The required scopes the principal lacks: for `anyOf` all of them when none is held, else none. */
export function missingScopes(principal: ScopeHolder, descriptor: ScopeRequirement): string[] {
  const held = new Set(principal.scopes);
  const missing = descriptor.requiredScopes.filter((s) => !held.has(s));
  if (descriptor.scopeMatch === "anyOf") return missing.length < descriptor.requiredScopes.length ? [] : missing;
  return missing;
}

/** Throws `insufficient_scope` naming what is missing and how the scopes are matched. */
export function assertScopes(principal: ScopeHolder, descriptor: ScopeRequirement & { name: string }): void {
  const missing = missingScopes(principal, descriptor);
  if (missing.length === 0) return;
  const need = descriptor.scopeMatch === "anyOf" ? "one of" : "all of";
  throw new InsufficientScopeError(
    `${descriptor.name} needs ${need}: ${descriptor.requiredScopes.join(", ")}; missing: ${missing.join(", ")}`,
    { reasons: missing.map((scope) => ({ field: "scopes", reason: `missing ${scope}` })) },
  );
}
