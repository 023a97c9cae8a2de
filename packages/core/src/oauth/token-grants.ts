import { InvalidGrantError, InvalidRequestError, InvalidScopeError, InvalidTargetError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { generateSecret, sha256Hex } from "../crypto/random.js";
import type { OAuthClientRecord, OAuthTokenFamilyRecord } from "../ports/oauth-records.js";
import { signAccessToken } from "./access-tokens.js";
import type { OAuthContext } from "./oauth-context.js";
import type { OAuthUrls } from "./oauth-urls.js";
import { parseScopeParameter } from "./oauth-urls.js";
import { verifyPkce } from "./pkce.js";

function required(form: URLSearchParams, name: string): string {
  const value = form.get(name);
  if (value === null || value === "") throw new InvalidRequestError(`${name} is required`);
  return value;
}

/** A new refresh token in `family` and a fresh access token; the refresh token is stored hashed. */
async function issueTokens(context: OAuthContext, urls: OAuthUrls, family: OAuthTokenFamilyRecord, scopes: string[], client: OAuthClientRecord): Promise<OAuthTokens> {
  // Only clients that registered the refresh_token grant get one (RFC 7591 default: code only).
  const refreshToken = mayRefresh(client) ? generateSecret("vtr_rt_") : undefined;
  if (refreshToken !== undefined) {
    await context.storage.oauthTokens.insertRefreshToken({
      tokenHash: await sha256Hex(refreshToken),
      familyId: family.id,
      scopes,
      expiresAt: context.isoIn(context.ttlSeconds.refreshToken),
      createdAt: context.clock.now().toISOString(),
      usedAt: null,
    });
  }
  const claims = { issuer: urls.issuer, audience: family.resource, userId: family.userId, workspaceId: family.workspaceId, clientId: family.clientId, scopes, familyId: family.id };
  const accessToken = await signAccessToken(context.keys, context.clock, claims, context.ttlSeconds.accessToken);
  return { access_token: accessToken, token_type: "Bearer", expires_in: context.ttlSeconds.accessToken, ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }), scope: scopes.join(" ") };
}

/** The grant types the client registered (RFC 7591 default: authorization_code only). */
export function registeredGrantTypes(client: OAuthClientRecord): string[] {
  const grants = client.metadata.grant_types;
  return Array.isArray(grants) ? grants.filter((g): g is string => typeof g === "string") : ["authorization_code"];
}
const mayRefresh = (client: OAuthClientRecord) => registeredGrantTypes(client).includes("refresh_token");

/**
 * Spends a single-use credential (code or refresh token). A second presentation means a copy is
 * in someone else's hands, so the grant it belongs to is revoked before refusing.
 */
async function spendOnce<T extends { familyId: string }>(
  context: OAuthContext,
  now: string,
  credential: { spend(): Promise<T | null>; find(): Promise<T | null>; unknown: string; replayed: string },
): Promise<T> {
  const spent = await credential.spend();
  if (spent !== null) return spent;
  const replayed = await credential.find();
  if (replayed === null) throw new InvalidGrantError(credential.unknown);
  await context.storage.oauthTokens.revokeFamily(replayed.familyId, now);
  throw new InvalidGrantError(credential.replayed);
}

const isPast = (context: OAuthContext, iso: string) => Date.parse(iso) <= context.clock.now().getTime();

/**
 * `grant_type=authorization_code`. The code is marked used before anything else is checked, so a
 * wrong verifier burns it too, and a second use revokes every token issued from the first.
 */
export async function exchangeAuthorizationCode(context: OAuthContext, urls: OAuthUrls, client: OAuthClientRecord, form: URLSearchParams): Promise<OAuthTokens> {
  const codeHash = await sha256Hex(required(form, "code"));
  const now = context.clock.now().toISOString();
  const code = await spendOnce(context, now, {
    spend: () => context.storage.oauthCodes.markUsed(codeHash, now),
    find: () => context.storage.oauthCodes.get(codeHash),
    unknown: "unknown authorization code",
    replayed: "authorization code was already used; tokens issued from it are revoked",
  });
  if (isPast(context, code.expiresAt)) throw new InvalidGrantError("authorization code expired");
  if (code.clientId !== client.id) throw new InvalidGrantError("authorization code was issued to another client");
  if (form.get("redirect_uri") !== code.redirectUri) throw new InvalidGrantError("redirect_uri does not match the authorization request");
  if (!(await verifyPkce(form.get("code_verifier") ?? "", code.codeChallenge))) throw new InvalidGrantError("code_verifier does not match the code_challenge");
  const resource = form.get("resource");
  if (resource !== null && resource !== code.resource) throw new InvalidTargetError("resource does not match the authorization request");

  const family: OAuthTokenFamilyRecord = {
    id: code.familyId, clientId: client.id, userId: code.userId, workspaceId: code.workspaceId,
    scopes: code.scopes, resource: code.resource, createdAt: now, revokedAt: null,
  };
  await context.storage.oauthTokens.insertFamily(family);
  return issueTokens(context, urls, family, code.scopes, client);
}

/**
 * `grant_type=refresh_token`, rotating: the presented token is spent, a new one is issued, and a
 * spent token presented again (a stolen copy, or the legitimate one after theft) revokes the
 * whole family. Scope may narrow, never widen.
 */
export async function rotateRefreshToken(context: OAuthContext, urls: OAuthUrls, client: OAuthClientRecord, form: URLSearchParams): Promise<OAuthTokens> {
  const tokenHash = await sha256Hex(required(form, "refresh_token"));
  const now = context.clock.now().toISOString();
  const token = await spendOnce(context, now, {
    spend: () => context.storage.oauthTokens.markRefreshTokenUsed(tokenHash, now),
    find: () => context.storage.oauthTokens.getRefreshToken(tokenHash),
    unknown: "unknown refresh token",
    replayed: "refresh token was already used; the whole grant is revoked",
  });
  const family = await context.storage.oauthTokens.getFamily(token.familyId);
  if (family === null || family.revokedAt !== null) throw new InvalidGrantError("the grant of this refresh token was revoked");
  if (family.clientId !== client.id) throw new InvalidGrantError("refresh token was issued to another client");
  if (isPast(context, token.expiresAt)) throw new InvalidGrantError("refresh token expired");
  const resource = form.get("resource");
  if (resource !== null && resource !== family.resource) throw new InvalidTargetError("resource does not match the grant");
  const requested = parseScopeParameter(form.get("scope")) ?? token.scopes;
  const wider = requested.filter((s) => !token.scopes.includes(s));
  if (wider.length > 0) throw new InvalidScopeError(`scope may not widen on refresh: ${wider.join(" ")} was not granted`);
  return issueTokens(context, urls, family, requested, client);
}
