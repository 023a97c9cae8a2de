import {
  InvalidRequestError,
  UnsupportedGrantTypeError,
  UnauthorizedClientError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { sha256Hex } from "../crypto/random.js";
import type { Route } from "../http/router.js";
import { verifyAccessToken } from "./access-tokens.js";
import { authenticateClient } from "./client-authentication.js";
import type { OAuthContext } from "./oauth-context.js";
import { oauthJson, readOAuthForm, withCors } from "./oauth-http.js";
import { exchangeAuthorizationCode, registeredGrantTypes, rotateRefreshToken } from "./token-grants.js";

/** `POST /token` (authorization_code, refresh_token) and `POST /revoke` (RFC 7009). */
export function tokenRoutes(context: OAuthContext): Route[] {
  const token = async (request: Request) => {
    const form = await readOAuthForm(request);
    const client = await authenticateClient(context.storage, request, form);
    const grantType = form.get("grant_type");
    if (grantType === null) throw new InvalidRequestError("grant_type is required");
    if (grantType !== "authorization_code" && grantType !== "refresh_token") {
      throw new UnsupportedGrantTypeError(
        `grant_type ${grantType} is not supported; use authorization_code or refresh_token`,
      );
    }
    if (!registeredGrantTypes(client).includes(grantType))
      throw new UnauthorizedClientError(`this client did not register the ${grantType} grant`);
    const urls = context.urls(request);
    const tokens =
      grantType === "authorization_code"
        ? await exchangeAuthorizationCode(context, urls, client, form)
        : await rotateRefreshToken(context, urls, client, form);
    return oauthJson(tokens);
  };

  // RFC 7009 §2.2: 200 whether or not the token was known, so revocation reveals nothing.
  const revoke = async (request: Request) => {
    const form = await readOAuthForm(request);
    const client = await authenticateClient(context.storage, request, form);
    const presented = form.get("token");
    if (presented === null || presented === "") throw new InvalidRequestError("token is required");
    const now = context.clock.now().toISOString();
    const refresh = await context.storage.oauthTokens.getRefreshToken(await sha256Hex(presented));
    const familyId =
      refresh?.familyId ??
      (
        await verifyAccessToken(context.keys, context.clock, presented, {
          issuer: context.urls(request).issuer,
          audience: context.acceptedResources(context.urls(request)),
        })
      )?.familyId;
    if (familyId !== undefined) {
      const family = await context.storage.oauthTokens.getFamily(familyId);
      // Only the client the grant belongs to may revoke it.
      if (family?.clientId === client.id) await context.storage.oauthTokens.revokeFamily(familyId, now);
    }
    return new Response(null, { status: 200, headers: { "cache-control": "no-store" } });
  };

  return [
    ...withCors(context.corsAllowOrigin, "POST", "/token", token),
    ...withCors(context.corsAllowOrigin, "POST", "/revoke", revoke),
  ];
}
