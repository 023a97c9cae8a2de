import { describe, expect, it } from "vitest";
import type { OAuthAuthorizationCodeRecord, OAuthRefreshTokenRecord, OAuthTokenFamilyRecord } from "../ports/oauth-records.js";
import type { Storage } from "../ports/storage.js";
import { fixtures } from "./fixtures.js";

const hash = () => crypto.randomUUID().replace(/-/g, "").repeat(2);

/**
 * The OAuth 2.1 part of the storage contract, called from `runStorageContract`: clients, codes,
 * token families and refresh tokens, read back as stored, and single use under concurrency.
 */
export function runOAuthStorageContract(storage: () => Storage): void {
  const f = fixtures();
  const family = (over: Partial<OAuthTokenFamilyRecord> = {}): OAuthTokenFamilyRecord => ({
    id: f.id(), clientId: f.id(), userId: "u1", workspaceId: f.id(),
    scopes: ["catalog:read", "inventory:read"], resource: "https://api.example.com/mcp",
    createdAt: f.at(), revokedAt: null, ...over,
  });
  const refresh = (familyId: string, over: Partial<OAuthRefreshTokenRecord> = {}): OAuthRefreshTokenRecord => ({
    tokenHash: hash(), familyId, scopes: ["catalog:read"], expiresAt: f.at(86_400_000), createdAt: f.at(), usedAt: null, ...over,
  });
  const code = (over: Partial<OAuthAuthorizationCodeRecord> = {}): OAuthAuthorizationCodeRecord => ({
    codeHash: hash(), clientId: f.id(), redirectUri: "http://127.0.0.1:3333/callback",
    codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", resource: "https://api.example.com/mcp",
    scopes: ["catalog:read"], userId: "u1", workspaceId: f.id(), familyId: f.id(),
    expiresAt: f.at(60_000), createdAt: f.at(), usedAt: null, ...over,
  });

  describe("oauth", () => {
    it("stores public and confidential clients and reads them back", async () => {
      const confidential = {
        id: f.id(), secretHash: hash(), tokenEndpointAuthMethod: "client_secret_basic" as const,
        redirectUris: ["https://app.example.com/cb", "http://localhost:8080/cb"], scopes: ["catalog:read"],
        metadata: { client_name: "Claude 🤖", grant_types: ["authorization_code", "refresh_token"] }, createdAt: f.at(),
      };
      const pub = { ...confidential, id: f.id(), secretHash: null, tokenEndpointAuthMethod: "none" as const, scopes: null, metadata: {} };
      await storage().oauthClients.insert(confidential);
      await storage().oauthClients.insert(pub);
      expect(await storage().oauthClients.get(confidential.id)).toEqual(confidential);
      expect(await storage().oauthClients.get(pub.id)).toEqual(pub);
      expect(await storage().oauthClients.get(f.id())).toBeNull();
      await expect(storage().oauthClients.insert(pub)).rejects.toMatchObject({ code: "conflict" });
    });

    it("lets exactly one of many concurrent exchanges use an authorization code", async () => {
      const stored = code();
      await storage().oauthCodes.insert(stored);
      expect(await storage().oauthCodes.get(stored.codeHash)).toEqual(stored);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => storage().transaction((tx) => tx.oauthCodes.markUsed(stored.codeHash, f.at(1000 + i)))),
      );
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(await storage().oauthCodes.get(stored.codeHash)).toEqual(winners[0]);
      expect(winners[0]).toEqual({ ...stored, usedAt: winners[0]!.usedAt });
      expect(await storage().oauthCodes.markUsed(hash(), f.at())).toBeNull();
    });

    it("stores token families, revokes one once, and keeps its revocation time", async () => {
      const stored = family();
      await storage().oauthTokens.insertFamily(stored);
      expect(await storage().oauthTokens.getFamily(stored.id)).toEqual(stored);
      expect(await storage().oauthTokens.revokeFamily(stored.id, f.at(5000))).toBe(true);
      expect(await storage().oauthTokens.revokeFamily(stored.id, f.at(9000))).toBe(true);
      expect(await storage().oauthTokens.getFamily(stored.id)).toEqual({ ...stored, revokedAt: f.at(5000) });
      expect(await storage().oauthTokens.revokeFamily(f.id(), f.at())).toBe(false);
      expect(await storage().oauthTokens.getFamily(f.id())).toBeNull();
    });

    it("rotates refresh tokens: each is used once, even under concurrency", async () => {
      const owner = family();
      await storage().oauthTokens.insertFamily(owner);
      const token = refresh(owner.id);
      await storage().oauthTokens.insertRefreshToken(token);
      expect(await storage().oauthTokens.getRefreshToken(token.tokenHash)).toEqual(token);
      const results = await Promise.all(
        Array.from({ length: 10 }, () => storage().transaction((tx) => tx.oauthTokens.markRefreshTokenUsed(token.tokenHash, f.at(7000)))),
      );
      expect(results.filter((r) => r !== null)).toEqual([{ ...token, usedAt: f.at(7000) }]);
      expect(await storage().oauthTokens.getRefreshToken(token.tokenHash)).toEqual({ ...token, usedAt: f.at(7000) });
      expect(await storage().oauthTokens.getRefreshToken(hash())).toBeNull();
    });

    it("rolls back an OAuth write in a failed transaction", async () => {
      const owner = family();
      const boom = new Error("boom");
      await expect(
        storage().transaction(async (tx) => {
          await tx.oauthTokens.insertFamily(owner);
          await tx.oauthTokens.insertRefreshToken(refresh(owner.id));
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await storage().oauthTokens.getFamily(owner.id)).toBeNull();
    });
  });
}
