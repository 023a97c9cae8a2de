import { InsufficientScopeError } from "../errors.js";
import type { CapabilityDescriptor, CapabilityPrincipal } from "./definition.js";

/** The required scopes the principal lacks: for `anyOf` all of them when none is held, else none. */
export function missingScopes(
  principal: CapabilityPrincipal,
  descriptor: Pick<CapabilityDescriptor, "requiredScopes" | "scopeMatch">,
): string[] {
  const held = new Set(principal.scopes);
  const missing = descriptor.requiredScopes.filter((s) => !held.has(s));
  if (descriptor.scopeMatch === "anyOf") return missing.length < descriptor.requiredScopes.length ? [] : missing;
  return missing;
}

/** Throws `insufficient_scope` naming what is missing and how the scopes are matched. */
export function assertScopes(principal: CapabilityPrincipal, descriptor: CapabilityDescriptor): void {
  const missing = missingScopes(principal, descriptor);
  if (missing.length === 0) return;
  const need = descriptor.scopeMatch === "anyOf" ? "one of" : "all of";
  throw new InsufficientScopeError(
    `${descriptor.name} needs ${need}: ${descriptor.requiredScopes.join(", ")}; missing: ${missing.join(", ")}`,
    { reasons: missing.map((scope) => ({ field: "scopes", reason: `missing ${scope}` })) },
  );
}
