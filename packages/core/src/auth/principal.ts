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
  /**
   * Console sessions: the membership's session epoch the session was signed in under. The session
   * has ended (signed out) when the stored epoch differs.
   */
  sessionEpoch?: string;
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

/** Core's own authenticators that read nothing of a request but its method, URL and headers. */
const readingHeadersOnly = new WeakSet<Authenticator>();

/**
 * Marks one of core's own authenticators as reading only a request's method, URL and headers, so a
 * route that reads its body straight off the server binding (see `http/direct-body.ts`) may hand it
 * the binding's request as it came. An embedder's authenticator is never marked: such a route then
 * works on a real web Request throughout.
 */
export function readsHeadersOnly(authenticate: Authenticator): Authenticator {
  readingHeadersOnly.add(authenticate);
  return authenticate;
}

/** Whether `authenticate` is one of core's own that read headers only (see `readsHeadersOnly`). */
export const onlyReadsHeaders = (authenticate: Authenticator): boolean => readingHeadersOnly.has(authenticate);

/** Tries authenticators in order; the first principal wins. */
export function firstOf(...authenticators: Authenticator[]): Authenticator {
  const first: Authenticator = async (request) => {
    for (const authenticate of authenticators) {
      const principal = await authenticate(request);
      if (principal !== null) return principal;
    }
    return null;
  };
  return authenticators.every((a) => readingHeadersOnly.has(a)) ? readsHeadersOnly(first) : first;
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1] ?? null;
}

/** Every API key starts with this, which is how a 401 tells an API key from an OAuth access token. */
export const API_KEY_PREFIX = "vtr_live_";

/** What a surface accepts, for the wording of its 401 (see unauthenticatedError). */
export interface AcceptedCredentials {
  /** This surface accepts OAuth access tokens as well as API keys. */
  oauth?: boolean;
  /**
   * This surface takes API keys only, but others of the same server accept OAuth access tokens:
   * where, in words ("the MCP endpoint and the REST surface"). A JWT sent here is then told so.
   */
  oauthElsewhere?: string;
}

/** An OAuth access token as this server issues them: a JWT, three base64url segments. */
const LOOKS_LIKE_JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * The `unauthorized` error of a request no authenticator accepted, saying what to fix for the
 * credential actually sent: none, an API key (by its prefix), or, where the surface accepts OAuth
 * access tokens (`oauth`), anything else, which is taken for an access token that expired, was
 * revoked or names another resource. Without OAuth every bearer token is an API key to this
 * surface, except a JWT where other surfaces take OAuth (`oauthElsewhere`): that caller sent a
 * valid kind of credential to the wrong place, and is told where it works.
 */
export function unauthenticatedError(request: Request, accepts: AcceptedCredentials = {}): UnauthenticatedError {
  const token = bearerToken(request);
  const oauth = accepts.oauth === true;
  let message: string;
  if (token === null)
    message = oauth
      ? "send an API key or an OAuth access token as `Authorization: Bearer <token>`"
      : "send an API key as `Authorization: Bearer <API_KEY>`";
  else if (!oauth && accepts.oauthElsewhere !== undefined && LOOKS_LIKE_JWT.test(token))
    message = `this route takes an API key, not an OAuth access token (only ${accepts.oauthElsewhere} accept those): send an API key as \`Authorization: Bearer <API_KEY>\``;
  else if (!oauth || token.startsWith(API_KEY_PREFIX)) message = "the API key is unknown or revoked";
  else
    message = "the access token is expired, revoked or was issued for another resource: refresh it or authorize again";
  return new UnauthenticatedError(message, token !== null);
}

/**
 * The 401 of `unauthenticatedError`, remembering whether a bearer token was sent: RFC 6750 §3.1
 * wants `error="invalid_token"` in the challenge then, and not when no credential came at all.
 */
export class UnauthenticatedError extends VitrinaError {
  override readonly name = "UnauthenticatedError";
  constructor(
    message: string,
    readonly tokenPresented: boolean,
  ) {
    super("unauthorized", message);
  }
}

/** Authenticates or throws `unauthorized` (401 with `WWW-Authenticate: Bearer`), worded for what the surface `accepts`. */
export async function requirePrincipal(
  authenticate: Authenticator,
  request: Request,
  accepts: AcceptedCredentials = {},
): Promise<Principal> {
  const principal = await authenticate(request);
  if (principal !== null) return principal;
  throw unauthenticatedError(request, accepts);
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
