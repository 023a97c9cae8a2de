import {
  AccessDeniedError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  OAuthError,
  UnauthorizedClientError,
  UnsupportedResponseTypeError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { generateSecret, sha256Hex } from "../crypto/random.js";
import type { Route } from "../http/router.js";
import type { OAuthClientRecord } from "../ports/oauth-records.js";
import type { OAuthContext } from "./oauth-context.js";
import { catchOAuthErrors, oauthErrorResponse } from "./oauth-http.js";
import type { OAuthUrls } from "./oauth-urls.js";
import { parseScopeParameter } from "./oauth-urls.js";
import { isS256Challenge } from "./pkce.js";
import { registeredGrantTypes } from "./token-grants.js";
import { redirectUriMatches } from "./redirect-uris.js";

/** Errors from here on go back to the client's redirect URI (RFC 6749 §4.1.2.1). */
function redirectWithError(redirectUri: string, error: OAuthError, state: string | null, issuer: string): Response {
  const url = new URL(redirectUri);
  url.searchParams.set("error", error.errorCode);
  url.searchParams.set("error_description", error.message);
  if (state !== null) url.searchParams.set("state", state);
  url.searchParams.set("iss", issuer);
  return new Response(null, { status: 302, headers: { location: url.href, "cache-control": "no-store" } });
}

/** Client and redirect URI first: when either is wrong the user must not be sent anywhere. */
async function resolveClient(
  context: OAuthContext,
  query: URLSearchParams,
): Promise<{ client: OAuthClientRecord; redirectUri: string }> {
  const clientId = query.get("client_id");
  if (clientId === null) throw new InvalidRequestError("client_id is required");
  const client = await context.storage.oauthClients.get(clientId);
  if (client === null) throw new InvalidRequestError(`client ${clientId} is not registered`);
  const redirectUri = query.get("redirect_uri");
  if (redirectUri === null) throw new InvalidRequestError("redirect_uri is required");
  // Exact string match (OAuth 2.1 §2.3.1), any port on loopback (RFC 8252 §7.3).
  if (!client.redirectUris.some((registered) => redirectUriMatches(registered, redirectUri)))
    throw new InvalidRequestError(`redirect_uri ${redirectUri} is not registered for this client`);
  return { client, redirectUri };
}

/** No `scope` asked: the default scopes (reads) this client may have; writes must be asked for. */
function defaultScopes(context: OAuthContext, allowed: string[]): string[] {
  const scopes = context.defaultScopes.filter((s) => allowed.includes(s));
  if (scopes.length === 0)
    throw new InvalidScopeError(
      `no scope was requested and this client has no default scope; ask for some of: ${allowed.join(" ")}`,
    );
  return scopes;
}

/**
 * RFC 6749 §4.1.2.1 `unauthorized_client`: a client registered without the authorization code
 * grant or the `code` response type (stored before registration refused that, or by another
 * adapter) could never exchange the code, so no user is asked to consent to one.
 */
function refuseUnregisteredCodeFlow(client: OAuthClientRecord): void {
  if (!registeredGrantTypes(client).includes("authorization_code"))
    throw new UnauthorizedClientError("this client did not register the authorization_code grant");
  const responseTypes = client.metadata.response_types;
  if (Array.isArray(responseTypes) && !responseTypes.includes("code"))
    throw new UnauthorizedClientError("this client did not register the code response type");
}

function checkAuthorizationRequest(
  context: OAuthContext,
  urls: OAuthUrls,
  client: OAuthClientRecord,
  query: URLSearchParams,
) {
  if (query.get("response_type") !== "code") throw new UnsupportedResponseTypeError("response_type must be code");
  refuseUnregisteredCodeFlow(client);
  const challenge = query.get("code_challenge");
  const method = query.get("code_challenge_method");
  if (challenge === null)
    throw new InvalidRequestError("PKCE is required: send code_challenge with code_challenge_method=S256");
  if (method !== "S256")
    throw new InvalidRequestError(`code_challenge_method must be S256 (${method ?? "plain"} is refused)`);
  if (!isS256Challenge(challenge))
    throw new InvalidRequestError("code_challenge must be the base64url SHA-256 of the verifier (43 characters)");
  const allowed = client.scopes ?? context.scopesSupported;
  const scopes = parseScopeParameter(query.get("scope")) ?? defaultScopes(context, allowed);
  const refused = scopes.filter((s) => !allowed.includes(s) || !context.scopesSupported.includes(s));
  if (refused.length > 0) throw new InvalidScopeError(`this client may not ask for: ${refused.join(" ")}`);
  const resource = query.get("resource") ?? urls.resource;
  if (!context.acceptedResources(urls).includes(resource))
    throw new InvalidTargetError(`resource ${resource} is not served by this authorization server`);
  return { challenge, scopes, resource };
}

/**
 * `/authorize` (GET, and POST for a consent form posting back to the same URL): checks the
 * request, asks the embedder's `authorize` hook who the user is and what they grant, then
 * redirects back with a single-use code bound to client, redirect URI, PKCE challenge and resource.
 */
export function authorizeRoutes(context: OAuthContext): Route[] {
  const handler = catchOAuthErrors(async (request) => {
    const urls = context.urls(request);
    const query = new URL(request.url).searchParams;
    const { client, redirectUri } = await resolveClient(context, query);
    const state = query.get("state");
    const fail = (error: OAuthError) => redirectWithError(redirectUri, error, state, urls.issuer);
    let checked: ReturnType<typeof checkAuthorizationRequest>;
    try {
      checked = checkAuthorizationRequest(context, urls, client, query);
    } catch (error) {
      // RFC 9700 §4.11.2: registration is open, so redirecting an invalid request of a client no
      // user ever approved would make this server an open redirector. Answer here instead.
      if (!(error instanceof OAuthError)) throw error;
      return client.approvedAt === null ? oauthErrorResponse(error) : fail(error);
    }
    try {
      const { challenge, scopes, resource } = checked;
      const deny = () => fail(new AccessDeniedError("the user denied the request"));
      const decision = await context.options.authorize(request, { client, scopes, resource, deny });
      if (decision instanceof Response) return decision;
      const granted = scopes.filter((s) => decision.grantedScopes.includes(s));
      if (granted.length === 0) return deny();
      const member = await context.storage.workspaces.getMember(decision.workspaceId, decision.userId);
      if (member === null) return fail(new AccessDeniedError("the user is not a member of the workspace"));

      const code = generateSecret("vtr_ac_");
      await context.storage.oauthCodes.insert({
        codeHash: await sha256Hex(code),
        clientId: client.id,
        redirectUri,
        codeChallenge: challenge,
        resource,
        scopes: granted,
        userId: decision.userId,
        workspaceId: decision.workspaceId,
        familyId: context.ids(),
        expiresAt: context.isoIn(context.ttlSeconds.code),
        createdAt: context.clock.now().toISOString(),
        usedAt: null,
      });
      await context.storage.oauthClients.markApproved(client.id, context.clock.now().toISOString());
      const location = new URL(redirectUri);
      location.searchParams.set("code", code);
      if (state !== null) location.searchParams.set("state", state);
      location.searchParams.set("iss", urls.issuer);
      return new Response(null, { status: 302, headers: { location: location.href, "cache-control": "no-store" } });
    } catch (error) {
      if (error instanceof OAuthError) return fail(error);
      throw error;
    }
  });
  return [
    { method: "GET", path: "/authorize", handler },
    { method: "POST", path: "/authorize", handler },
  ];
}
