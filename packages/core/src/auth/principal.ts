import { InsufficientScopeError, VitrinaError } from "../errors.js";

/** Who is calling, once authenticated: a workspace and what it may do there. */
export interface Principal {
  /**
   * How the caller authenticated: a stored API key, an OAuth access token, a fixed token table, or
   * a signed-in console session (a user of the workspace; `subject` is the user id and the session
   * id is `keyId`).
   */
  kind: "api_key" | "oauth" | "static" | "console";
  workspaceId: string;
  /** The API key's id, or for OAuth the grant (token family) id: revoking either stops the caller. */
  keyId: string;
  scopes: string[];
  /** OAuth and console sessions: the signed-in user the caller acts for. */
  subject?: string;
  /** OAuth: the client the token was issued to. */
  clientId?: string;
}

/** A caller authenticated by an OAuth 2.1 access token, acting for a signed-in user through a client. */
export interface OAuthPrincipal extends Principal {
  kind: "oauth";
  subject: string;
  clientId: string;
}

/**
 * The seam every authenticated route goes through: a request in, a principal or null out.
 * API keys are the first implementation; an OAuth 2.1 token verifier slots in as another
 * `Authenticator` (try each in turn with `firstOf`).
 */
export type Authenticator = (request: Request) => Promise<Principal | null>;

/** Tries authenticators in order; the first principal wins. */
export function firstOf(...authenticators: Authenticator[]): Authenticator {
  return async (request) => {
    for (const authenticate of authenticators) {
      const principal = await authenticate(request);
      if (principal !== null) return principal;
    }
    return null;
  };
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1] ?? null;
}

/** Authenticates or throws `unauthorized` (401 with `WWW-Authenticate: Bearer`). */
export async function requirePrincipal(authenticate: Authenticator, request: Request): Promise<Principal> {
  const principal = await authenticate(request);
  if (principal !== null) return principal;
  const message =
    bearerToken(request) === null
      ? "send an API key as `Authorization: Bearer <API_KEY>`"
      : "the API key is unknown or revoked";
  throw new VitrinaError("unauthorized", message);
}

/** Refuses with `insufficient_scope` (403) unless the principal holds `scope`. */
export function requireScope(principal: Principal, scope: string): void {
  if (!principal.scopes.includes(scope)) {
    const credential = principal.kind === "oauth" ? "access token" : "API key";
    throw new InsufficientScopeError(`this ${credential} lacks the scope ${scope}`, {
      reasons: [{ field: "scope", reason: `requires ${scope}` }],
    });
  }
}
