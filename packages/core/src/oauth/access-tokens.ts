import { jwtVerify, SignJWT } from "jose";
import type { Clock } from "../ports/clock.js";
import { SIGNING_ALGORITHMS, type SigningKeys } from "./signing-keys.js";

/** What an access token says (RFC 9068 JWT profile, plus Vitrina's workspace and grant ids). */
export interface AccessTokenClaims {
  issuer: string;
  /** The RFC 8707 resource: the token is only good there. */
  audience: string;
  userId: string;
  workspaceId: string;
  clientId: string;
  scopes: string[];
  /** The token family (grant); revoking it stops this token before it expires. */
  familyId: string;
}

const TOKEN_TYPE = "at+jwt";

export async function signAccessToken(
  keys: SigningKeys,
  clock: Clock,
  claims: AccessTokenClaims,
  ttlSeconds: number,
): Promise<string> {
  const { kid, alg, privateKey } = await keys.signingKey();
  const now = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({
    client_id: claims.clientId,
    scope: claims.scopes.join(" "),
    workspace_id: claims.workspaceId,
    fid: claims.familyId,
  })
    .setProtectedHeader({ alg, kid, typ: TOKEN_TYPE })
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setSubject(claims.userId)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .setJti(crypto.randomUUID())
    .sign(privateKey);
}

/**
 * Checks signature, type, issuer, expiry and audience; returns the claims, or null for anything
 * that is not a valid token for `audience` (never throws for a bad token).
 */
export async function verifyAccessToken(
  keys: SigningKeys,
  clock: Clock,
  token: string,
  expected: { issuer: string; audience: string | string[] },
): Promise<AccessTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, (header) => keys.verificationKey(header), {
      issuer: expected.issuer,
      audience: expected.audience,
      algorithms: SIGNING_ALGORITHMS,
      typ: TOKEN_TYPE,
      currentDate: clock.now(),
      requiredClaims: ["sub", "exp", "client_id", "workspace_id", "fid"],
    });
    const { sub, aud, client_id, scope, workspace_id, fid } = payload;
    if (typeof client_id !== "string" || typeof workspace_id !== "string" || typeof fid !== "string") return null;
    return {
      issuer: expected.issuer,
      audience: typeof aud === "string" ? aud : (aud?.[0] ?? ""),
      userId: sub!,
      workspaceId: workspace_id,
      clientId: client_id,
      scopes: typeof scope === "string" ? scope.split(" ").filter(Boolean) : [],
      familyId: fid,
    };
  } catch {
    return null;
  }
}
