import { bearerToken, readsHeadersOnly, type Authenticator, type Principal } from "./principal.js";

export type { Authenticator, Principal };

/** Until an authenticator is configured, nobody gets in (fail closed, never open). */
export const rejectEveryone: Authenticator = readsHeadersOnly(async () => null);

export type { ScopeRequirement } from "./scopes.js";

/**
 * A fixed table of tokens, for tests, demos and embedders with their own key store. Tokens are
 * compared as map keys; prefer the hashed API keys of `core/src/auth/` in production.
 */
export function staticTokenAuthenticator(tokens: Record<string, Omit<Principal, "kind">>): Authenticator {
  const table = new Map(
    Object.entries(tokens).map(([token, principal]) => [token, { kind: "static" as const, ...principal }]),
  );
  return readsHeadersOnly(async (request) => {
    const token = bearerToken(request);
    return token === null ? null : (table.get(token) ?? null);
  });
}
