import type { ContractContext } from "./contract-section.js";
import { describe, expect } from "vitest";
import { it } from "./contract-test.js";
import type {
  OAuthAuthorizationCodeRecord,
  OAuthRefreshTokenRecord,
  OAuthTokenFamilyRecord,
} from "../ports/oauth-records.js";
import type { Storage } from "../ports/storage.js";
import { fixtures } from "./fixtures.js";

const hash = () => crypto.randomUUID().replace(/-/g, "").repeat(2);

/**
 * The OAuth 2.1 part of the storage contract, called from `runStorageContract`: clients, codes,
 * token families and refresh tokens, read back as stored, and single use under concurrency.
 */
export function oauthContract({ storage, create }: ContractContext): void {
  const f = fixtures();
  const family = (over: Partial<OAuthTokenFamilyRecord> = {}): OAuthTokenFamilyRecord => ({
    id: f.id(),
    clientId: f.id(),
    userId: "u1",
    workspaceId: f.id(),
    scopes: ["catalog:read", "inventory:read"],
    resource: "https://api.example.com/mcp",
    createdAt: f.at(),
    expiresAt: f.at(90 * 86_400_000),
    revokedAt: null,
    ...over,
  });
  const refresh = (familyId: string, over: Partial<OAuthRefreshTokenRecord> = {}): OAuthRefreshTokenRecord => ({
    tokenHash: hash(),
    familyId,
    scopes: ["catalog:read"],
    expiresAt: f.at(86_400_000),
    createdAt: f.at(),
    usedAt: null,
    ...over,
  });
  const code = (over: Partial<OAuthAuthorizationCodeRecord> = {}): OAuthAuthorizationCodeRecord => ({
    codeHash: hash(),
    clientId: f.id(),
    redirectUri: "http://127.0.0.1:3333/callback",
    codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    resource: "https://api.example.com/mcp",
    scopes: ["catalog:read"],
    userId: "u1",
    workspaceId: f.id(),
    familyId: f.id(),
    expiresAt: f.at(60_000),
    createdAt: f.at(),
    usedAt: null,
    ...over,
  });

  const client = () => ({
    id: f.id(),
    secretHash: null,
    tokenEndpointAuthMethod: "none" as const,
    redirectUris: ["http://127.0.0.1/cb"],
    scopes: null,
    metadata: {},
    createdAt: f.at(),
    approvedAt: null as string | null,
  });

  describe("oauth", () => {
    it("stores public and confidential clients and reads them back", async () => {
      const confidential = {
        id: f.id(),
        secretHash: hash(),
        tokenEndpointAuthMethod: "client_secret_basic" as const,
        redirectUris: ["https://app.example.com/cb", "http://localhost:8080/cb"],
        scopes: ["catalog:read"],
        metadata: { client_name: "Claude 🤖", grant_types: ["authorization_code", "refresh_token"] },
        createdAt: f.at(),
        approvedAt: null,
      };
      const pub = {
        ...confidential,
        id: f.id(),
        secretHash: null,
        tokenEndpointAuthMethod: "none" as const,
        scopes: null,
        metadata: {},
      };
      await storage().oauthClients.insert(confidential);
      await storage().oauthClients.insert(pub);
      expect(await storage().oauthClients.get(confidential.id)).toEqual(confidential);
      expect(await storage().oauthClients.get(pub.id)).toEqual(pub);
      expect(await storage().oauthClients.get(f.id())).toBeNull();
      await expect(storage().oauthClients.insert(pub)).rejects.toMatchObject({ code: "conflict" });
    });

    it("records a client's first approval once", async () => {
      const stored = { ...client(), approvedAt: null };
      await storage().oauthClients.insert(stored);
      await storage().oauthClients.markApproved(stored.id, f.at(1000));
      await storage().oauthClients.markApproved(stored.id, f.at(2000));
      expect(await storage().oauthClients.get(stored.id)).toEqual({ ...stored, approvedAt: f.at(1000) });
      await storage().oauthClients.markApproved(f.id(), f.at()); // unknown: nothing to do, no error
    });

    it("purges expired codes and refresh tokens, ended or revoked grants, and old unapproved clients", async () => {
      // Purges span every client and grant, so the test has a storage of its own and exact counts.
      const own = await create();
      try {
        const now = f.at(10 * 86_400_000);
        const keptClient = { ...client(), createdAt: f.at(), approvedAt: f.at(1000) };
        const youngClient = { ...client(), createdAt: f.at(9.5 * 86_400_000) };
        const oldUnapproved = { ...client(), createdAt: f.at() };
        for (const c of [keptClient, youngClient, oldUnapproved]) await own.oauthClients.insert(c);
        const liveCode = code({ expiresAt: f.at(10 * 86_400_000 + 60_000) });
        const expiredCode = code({ expiresAt: f.at(60_000), usedAt: f.at(1000) });
        for (const c of [liveCode, expiredCode]) await own.oauthCodes.insert(c);
        const live = family({ createdAt: f.at(5 * 86_400_000), expiresAt: f.at(95 * 86_400_000) });
        const ended = family({ createdAt: f.at(), expiresAt: f.at(86_400_000) });
        const revoked = family({ createdAt: f.at(5 * 86_400_000), revokedAt: f.at(6 * 86_400_000) });
        for (const g of [live, ended, revoked]) await own.oauthTokens.insertFamily(g);
        const liveToken = refresh(live.id, { expiresAt: f.at(20 * 86_400_000) });
        const spentLiveToken = refresh(live.id, { expiresAt: f.at(20 * 86_400_000), usedAt: f.at(6 * 86_400_000) });
        const expiredToken = refresh(live.id, { expiresAt: f.at(9 * 86_400_000) });
        const endedToken = refresh(ended.id, { expiresAt: f.at(20 * 86_400_000) });
        const revokedToken = refresh(revoked.id, { expiresAt: f.at(20 * 86_400_000) });
        for (const t of [liveToken, spentLiveToken, expiredToken, endedToken, revokedToken])
          await own.oauthTokens.insertRefreshToken(t);

        const counts = await own.oauthTokens.purgeExpired({
          now,
          unapprovedClientsCreatedBefore: f.at(9 * 86_400_000),
        });
        expect(counts).toEqual({ codes: 1, grants: 2, refreshTokens: 3, clients: 1 });
        expect(
          await own.oauthTokens.purgeExpired({ now, unapprovedClientsCreatedBefore: f.at(9 * 86_400_000) }),
        ).toEqual({ codes: 0, grants: 0, refreshTokens: 0, clients: 0 });
        expect(await own.oauthCodes.get(liveCode.codeHash)).toEqual(liveCode);
        expect(await own.oauthCodes.get(expiredCode.codeHash)).toBeNull();
        expect(await own.oauthTokens.getFamily(live.id)).toEqual(live);
        expect(await own.oauthTokens.getFamily(ended.id)).toBeNull();
        expect(await own.oauthTokens.getFamily(revoked.id)).toBeNull();
        // A spent token is kept until it would have expired: presenting it again still means theft.
        expect(await own.oauthTokens.getRefreshToken(spentLiveToken.tokenHash)).toEqual(spentLiveToken);
        expect(await own.oauthTokens.getRefreshToken(liveToken.tokenHash)).toEqual(liveToken);
        for (const t of [expiredToken, endedToken, revokedToken])
          expect(await own.oauthTokens.getRefreshToken(t.tokenHash)).toBeNull();
        expect(await own.oauthClients.get(keptClient.id)).toEqual(keptClient);
        expect(await own.oauthClients.get(youngClient.id)).toEqual(youngClient);
        expect(await own.oauthClients.get(oldUnapproved.id)).toBeNull();
      } finally {
        await own.close();
      }
    });

    it("purges at most `limit` of each kind per call, a grant's refresh tokens along with it", async () => {
      // Purges span every client and grant, so the test has a storage of its own and exact counts.
      const own = await create();
      try {
        const now = f.at(10 * 86_400_000);
        const cutoffs = { now, unapprovedClientsCreatedBefore: f.at(9 * 86_400_000) };
        const expiredCodes = [1, 2, 3].map(() => code({ expiresAt: f.at(60_000) }));
        for (const c of expiredCodes) await own.oauthCodes.insert(c);
        const oldClients = [1, 2, 3].map(() => ({ ...client(), createdAt: f.at() }));
        for (const c of oldClients) await own.oauthClients.insert(c);
        const endedGrants = [1, 2, 3].map(() => family({ createdAt: f.at(), expiresAt: f.at(86_400_000) }));
        for (const g of endedGrants) await own.oauthTokens.insertFamily(g);
        // Three live tokens under each ended grant: more than the limit, and they all go with their grant.
        const grantTokens = endedGrants.flatMap((g) =>
          [1, 2, 3].map(() => refresh(g.id, { expiresAt: f.at(20 * 86_400_000) })),
        );
        const live = family({ createdAt: f.at(5 * 86_400_000), expiresAt: f.at(95 * 86_400_000) });
        await own.oauthTokens.insertFamily(live);
        const expiredTokens = [1, 2, 3].map(() => refresh(live.id, { expiresAt: f.at(9 * 86_400_000) }));
        for (const t of [...grantTokens, ...expiredTokens]) await own.oauthTokens.insertRefreshToken(t);

        const first = await own.oauthTokens.purgeExpired({ ...cutoffs, limit: 2 });
        // Exactly the limit where at least that many were due.
        expect(first).toMatchObject({ codes: 2, grants: 2, clients: 2 });
        // Two grants' tokens, whatever their number, and up to two tokens past their own expiry.
        expect(first.refreshTokens).toBeGreaterThanOrEqual(6);
        let rounds = 1;
        for (;;) {
          const next = await own.oauthTokens.purgeExpired({ ...cutoffs, limit: 2 });
          rounds++;
          expect(Math.max(next.codes, next.grants, next.clients)).toBeLessThanOrEqual(2);
          if (Math.max(next.codes, next.grants, next.refreshTokens, next.clients) === 0) break;
          expect(rounds).toBeLessThan(100);
        }
        for (const c of expiredCodes) expect(await own.oauthCodes.get(c.codeHash)).toBeNull();
        for (const c of oldClients) expect(await own.oauthClients.get(c.id)).toBeNull();
        for (const g of endedGrants) expect(await own.oauthTokens.getFamily(g.id)).toBeNull();
        for (const t of [...grantTokens, ...expiredTokens])
          expect(await own.oauthTokens.getRefreshToken(t.tokenHash)).toBeNull();
        expect(await own.oauthTokens.getFamily(live.id)).toEqual(live);
      } finally {
        await own.close();
      }
    });

    it("lets exactly one of many concurrent exchanges use an authorization code", async () => {
      const stored = code();
      await storage().oauthCodes.insert(stored);
      expect(await storage().oauthCodes.get(stored.codeHash)).toEqual(stored);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          storage().transaction((tx) => tx.oauthCodes.markUsed(stored.codeHash, f.at(1000 + i))),
        ),
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
        Array.from({ length: 10 }, () =>
          storage().transaction((tx) => tx.oauthTokens.markRefreshTokenUsed(token.tokenHash, f.at(7000))),
        ),
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
