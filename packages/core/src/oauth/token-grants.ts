import {
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  OAuthError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { generateSecret, sha256Hex } from "../crypto/random.js";
import type {
  OAuthAuthorizationCodeRecord,
  OAuthClientRecord,
  OAuthRefreshTokenRecord,
  OAuthTokenFamilyRecord,
} from "../ports/oauth-records.js";
import type { StorageRepositories } from "../ports/storage.js";
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

/** The grant types the client registered (RFC 7591 default: authorization_code only). */
export function registeredGrantTypes(client: OAuthClientRecord): string[] {
  const grants = client.metadata.grant_types;
  return Array.isArray(grants) ? grants.filter((g): g is string => typeof g === "string") : ["authorization_code"];
}
const mayRefresh = (client: OAuthClientRecord) => registeredGrantTypes(client).includes("refresh_token");

const ms = (iso: string) => Date.parse(iso);

/**
 * Stores a new refresh token of `family` (in the caller's transaction) and signs an access token.
 * Neither outlives the grant's absolute end. `scopes` are the access token's; the refresh token
 * carries `refreshScopes` (default the same), since a refresh that narrows the access token must
 * leave the refresh token's scope as it was (RFC 6749 §6, OAuth 2.1 §4.3.3).
 */
async function issueTokens(
  context: OAuthContext,
  tx: StorageRepositories,
  urls: OAuthUrls,
  family: OAuthTokenFamilyRecord,
  scopes: string[],
  client: OAuthClientRecord,
  refreshScopes: string[] = scopes,
): Promise<OAuthTokens> {
  const now = context.clock.now().getTime();
  const endsAt = ms(family.expiresAt);
  // Only clients that registered the refresh_token grant get one (RFC 7591 default: code only).
  const refreshToken = mayRefresh(client) ? generateSecret("vtr_rt_") : undefined;
  if (refreshToken !== undefined) {
    await tx.oauthTokens.insertRefreshToken({
      tokenHash: await sha256Hex(refreshToken),
      familyId: family.id,
      scopes: refreshScopes,
      expiresAt: new Date(Math.min(now + context.ttlSeconds.refreshToken * 1000, endsAt)).toISOString(),
      createdAt: new Date(now).toISOString(),
      usedAt: null,
    });
  }
  const ttl = Math.max(1, Math.min(context.ttlSeconds.accessToken, Math.floor((endsAt - now) / 1000)));
  const claims = {
    issuer: urls.issuer,
    audience: family.resource,
    userId: family.userId,
    workspaceId: family.workspaceId,
    clientId: family.clientId,
    scopes,
    familyId: family.id,
  };
  const accessToken = await signAccessToken(context.keys, context.clock, claims, ttl);
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ttl,
    ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
    scope: scopes.join(" "),
  };
}

/**
 * Runs `work` in one transaction and throws its refusal only after the commit: a refusal inside
 * (a replay's grant revocation, a spent code) must be stored, not rolled back with the throw.
 */
async function inTransaction(
  context: OAuthContext,
  work: (tx: StorageRepositories) => Promise<OAuthTokens | OAuthError>,
): Promise<OAuthTokens> {
  const outcome = await context.storage.transaction(work);
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

/** Why a code can't be exchanged by this request, or null when it can. */
async function codeRefusal(
  context: OAuthContext,
  client: OAuthClientRecord,
  code: OAuthAuthorizationCodeRecord,
  form: URLSearchParams,
): Promise<OAuthError | null> {
  if (ms(code.expiresAt) <= context.clock.now().getTime()) return new InvalidGrantError("authorization code expired");
  if (code.clientId !== client.id) return new InvalidGrantError("authorization code was issued to another client");
  if (form.get("redirect_uri") !== code.redirectUri)
    return new InvalidGrantError("redirect_uri does not match the authorization request");
  if (!(await verifyPkce(form.get("code_verifier") ?? "", code.codeChallenge)))
    return new InvalidGrantError("code_verifier does not match the code_challenge");
  const resource = form.get("resource");
  if (resource !== null && resource !== code.resource)
    return new InvalidTargetError("resource does not match the authorization request");
  return null;
}

/**
 * `grant_type=authorization_code`. Spend, checks, grant creation and refresh token are one
 * transaction, and the spend is a conditional `UPDATE … WHERE used_at IS NULL`: a concurrent second
 * exchange waits on the row lock until the first commits, then finds the code used and revokes
 * the grant, which by then exists. So a double spend always ends with every token from the code
 * revoked. A failed check still spends the code (a code is one attempt).
 */
export async function exchangeAuthorizationCode(
  context: OAuthContext,
  urls: OAuthUrls,
  client: OAuthClientRecord,
  form: URLSearchParams,
): Promise<OAuthTokens> {
  const codeHash = await sha256Hex(required(form, "code"));
  const now = context.clock.now().toISOString();
  return inTransaction(context, async (tx) => {
    const code = await tx.oauthCodes.markUsed(codeHash, now);
    if (code === null) {
      const replayed = await tx.oauthCodes.get(codeHash);
      if (replayed === null) return new InvalidGrantError("unknown authorization code");
      await tx.oauthTokens.revokeFamily(replayed.familyId, now);
      return new InvalidGrantError("authorization code was already used; tokens issued from it are revoked");
    }
    const refusal = await codeRefusal(context, client, code, form);
    if (refusal !== null) return refusal;
    const family: OAuthTokenFamilyRecord = {
      id: code.familyId,
      clientId: client.id,
      userId: code.userId,
      workspaceId: code.workspaceId,
      scopes: code.scopes,
      resource: code.resource,
      createdAt: now,
      expiresAt: context.isoIn(context.ttlSeconds.grant),
      revokedAt: null,
    };
    await tx.oauthTokens.insertFamily(family);
    return issueTokens(context, tx, urls, family, code.scopes, client);
  });
}

/**
 * Everything a refresh request must satisfy, checked before the token is spent, so a refused
 * request (wrong resource, wider scope, …) leaves the token usable for a corrected retry.
 * A user no longer in the workspace ends the grant.
 */
async function checkRefresh(
  context: OAuthContext,
  client: OAuthClientRecord,
  token: OAuthRefreshTokenRecord,
  form: URLSearchParams,
) {
  const now = context.clock.now();
  const family = await context.storage.oauthTokens.getFamily(token.familyId);
  if (family === null || family.revokedAt !== null)
    throw new InvalidGrantError("the grant of this refresh token was revoked");
  if (family.clientId !== client.id) throw new InvalidGrantError("refresh token was issued to another client");
  if (ms(token.expiresAt) <= now.getTime()) throw new InvalidGrantError("refresh token expired");
  if (ms(family.expiresAt) <= now.getTime())
    throw new InvalidGrantError("the grant reached its absolute lifetime; authorize again");
  const resource = form.get("resource");
  if (resource !== null && resource !== family.resource)
    throw new InvalidTargetError("resource does not match the grant");
  const scopes = parseScopeParameter(form.get("scope")) ?? token.scopes;
  const wider = scopes.filter((s) => !token.scopes.includes(s));
  if (wider.length > 0)
    throw new InvalidScopeError(`scope may not widen on refresh: ${wider.join(" ")} was not granted`);
  if ((await context.storage.workspaces.getMember(family.workspaceId, family.userId)) === null) {
    await context.storage.oauthTokens.revokeFamily(family.id, now.toISOString());
    throw new InvalidGrantError("the user is no longer a member of the workspace; the grant is revoked");
  }
  return { family, scopes };
}

/** Whether a spent refresh token is still inside the reuse interval (a client retrying a lost response). */
const withinReuseInterval = (context: OAuthContext, spent: OAuthRefreshTokenRecord) =>
  context.ttlSeconds.refreshReuse > 0 &&
  spent.usedAt !== null &&
  context.clock.now().getTime() - ms(spent.usedAt) < context.ttlSeconds.refreshReuse * 1000;

/**
 * `grant_type=refresh_token`, rotating. The request is checked first; the token is spent only in
 * the transaction that stores its successor. A spent token presented again (a stolen copy, or
 * the legitimate one after theft) revokes the whole grant, unless it comes back within
 * `refreshTokenReuseIntervalSeconds` (default 0), when it gets a new pair instead.
 */
export async function rotateRefreshToken(
  context: OAuthContext,
  urls: OAuthUrls,
  client: OAuthClientRecord,
  form: URLSearchParams,
): Promise<OAuthTokens> {
  const tokenHash = await sha256Hex(required(form, "refresh_token"));
  const presented = await context.storage.oauthTokens.getRefreshToken(tokenHash);
  if (presented === null) throw new InvalidGrantError("unknown refresh token");
  const { family, scopes } = await checkRefresh(context, client, presented, form);
  const now = context.clock.now().toISOString();
  return inTransaction(context, async (tx) => {
    const spent = await tx.oauthTokens.markRefreshTokenUsed(tokenHash, now);
    if (spent === null) {
      const current = await tx.oauthTokens.getRefreshToken(tokenHash);
      if (current === null || !withinReuseInterval(context, current)) {
        await tx.oauthTokens.revokeFamily(family.id, now);
        return new InvalidGrantError("refresh token was already used; the whole grant is revoked");
      }
    }
    // `scope=` narrows this access token only: the successor keeps the presented token's scopes.
    return issueTokens(context, tx, urls, family, scopes, client, presented.scopes);
  });
}
