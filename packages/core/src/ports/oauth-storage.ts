import type {
  OAuthAuthorizationCodeRecord,
  OAuthClientRecord,
  OAuthPurgeCounts,
  OAuthPurgeCutoffs,
  OAuthRefreshTokenRecord,
  OAuthTokenFamilyRecord,
} from "./oauth-records.js";

// Part of the Storage port (oAuth clients, authorization codes and token families.); see storage.ts.

export interface OAuthClientRepository {
  insert(client: OAuthClientRecord): Promise<void>;
  get(id: string): Promise<OAuthClientRecord | null>;
  /** Sets `approvedAt` unless already set (the first approval wins). */
  markApproved(id: string, approvedAt: string): Promise<void>;
}

export interface OAuthCodeRepository {
  insert(code: OAuthAuthorizationCodeRecord): Promise<void>;
  get(codeHash: string): Promise<OAuthAuthorizationCodeRecord | null>;
  /**
   * Marks the code used and returns it, only if it was unused: of two concurrent exchanges of
   * one code exactly one gets the record (an atomic `UPDATE … WHERE used_at IS NULL`).
   */
  markUsed(codeHash: string, usedAt: string): Promise<OAuthAuthorizationCodeRecord | null>;
}

export interface OAuthTokenRepository {
  insertFamily(family: OAuthTokenFamilyRecord): Promise<void>;
  getFamily(id: string): Promise<OAuthTokenFamilyRecord | null>;
  /** Sets `revokedAt` unless already revoked; false when the family does not exist. */
  revokeFamily(id: string, revokedAt: string): Promise<boolean>;
  insertRefreshToken(token: OAuthRefreshTokenRecord): Promise<void>;
  getRefreshToken(tokenHash: string): Promise<OAuthRefreshTokenRecord | null>;
  /** Like `OAuthCodeRepository.markUsed`: returns the token only to the one caller that used it first. */
  markRefreshTokenUsed(tokenHash: string, usedAt: string): Promise<OAuthRefreshTokenRecord | null>;
  /**
   * Deletes what no longer serves a purpose (see `OAuthPurgeCutoffs`): expired codes, expired
   * refresh tokens, revoked or ended grants with their refresh tokens, unapproved old clients.
   */
  purgeExpired(cutoffs: OAuthPurgeCutoffs): Promise<OAuthPurgeCounts>;
}
