import { memoryStorage } from "@vitrina/adapter-memory";
import { type Storage } from "@vitrina/core";
import { purgeExpiredOAuthRecords, signAccessToken } from "@vitrina/core/oauth";
import { afterEach, describe, expect, it } from "vitest";
import { OWNER, startOAuthHarness, type OAuthHarness } from "./support/oauth-harness.js";

const READ_SCOPES = "catalog:read customers:read conversations:read inventory:read";
const DAY = 86_400_000;

let h: OAuthHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Memory storage whose `getMember` answers null for users in `removed` (the port has no removal). */
function storageWithRemovableMembers(removed: Set<string>): Storage {
  const storage = memoryStorage();
  const getMember = storage.workspaces.getMember.bind(storage.workspaces);
  return {
    ...storage,
    workspaces: { ...storage.workspaces, getMember: async (w, u) => (removed.has(u) ? null : getMember(w, u)) },
  };
}

describe("OAuth grant policy (item 6)", () => {
  it("grants only the read scopes to a client that asks for none; writes must be asked for", async () => {
    h = await startOAuthHarness();
    const clientId = (await h.register()).json.client_id;
    expect((await h.obtainTokens(clientId, { scope: null })).scope).toBe(READ_SCOPES);
    expect((await h.obtainTokens(clientId, { scope: "customers:write" })).scope).toBe("customers:write");
    // A client registered for writes only has no default: it must ask.
    const writer = (await h.register({ scope: "quotes:write" })).json.client_id;
    await h.obtainTokens(writer, { scope: "quotes:write" });
    expect((await h.authorize(writer, { scope: null })).location!.searchParams.get("error")).toBe("invalid_scope");
  });

  it("ends a grant after grantLifetimeSeconds however often it is refreshed", async () => {
    h = await startOAuthHarness({ oauth: { grantLifetimeSeconds: 2 * 3600 } });
    const clientId = (await h.register()).json.client_id;
    let tokens = await h.obtainTokens(clientId);
    h.clock.advance(90 * 60_000);
    const refreshed = await h.token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.json.expires_in).toBe(30 * 60); // capped at the grant's end, not a full hour
    tokens = refreshed.json;
    h.clock.advance(30 * 60_000);
    const ended = await h.token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: tokens.refresh_token,
    });
    expect(ended.json.error).toBe("invalid_grant");
  });

  it("re-checks workspace membership at refresh: a removed user's grant is revoked", async () => {
    const removed = new Set<string>();
    h = await startOAuthHarness({ storage: storageWithRemovableMembers(removed) });
    const clientId = (await h.register()).json.client_id;
    const tokens = await h.obtainTokens(clientId);
    removed.add(OWNER);
    const refused = await h.token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: tokens.refresh_token,
    });
    expect(refused.json).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringContaining("no longer a member"),
    });
    expect(await h.principalOf(tokens.access_token)).toBeNull();
  });

  it("trusts the grant record over the access token's claims", async () => {
    h = await startOAuthHarness();
    const clientId = (await h.register()).json.client_id;
    const tokens = await h.obtainTokens(clientId);
    const real = await h.principalOf(tokens.access_token);
    expect(real).toMatchObject({ workspaceId: h.workspace.id, subject: OWNER, clientId });
    const context = h.vitrina.oauth!.context;
    const claims = {
      issuer: h.base,
      audience: h.mcpUrl,
      userId: OWNER,
      clientId,
      scopes: ["catalog:read"],
      familyId: real!.keyId,
    };
    const otherWorkspace = await signAccessToken(
      context.keys,
      h.clock,
      { ...claims, workspaceId: "someone-elses-workspace" },
      600,
    );
    expect(await h.principalOf(otherWorkspace)).toBeNull();
    const widened = await signAccessToken(
      context.keys,
      h.clock,
      { ...claims, workspaceId: h.workspace.id, scopes: ["catalog:read", "webhooks:write"] },
      600,
    );
    expect((await h.principalOf(widened))?.scopes).toEqual(["catalog:read"]);
  });

  it("purges expired codes, spent-and-expired refresh tokens, ended grants and unapproved clients", async () => {
    h = await startOAuthHarness();
    const unapproved = (await h.register()).json.client_id;
    const approved = (await h.register()).json.client_id;
    const tokens = await h.obtainTokens(approved);
    const rotated = await h.token({
      grant_type: "refresh_token",
      client_id: approved,
      refresh_token: tokens.refresh_token,
    });
    await h.obtainCode(approved); // never exchanged
    h.clock.advance(2 * DAY);
    const counts = await purgeExpiredOAuthRecords(h.storage, h.clock.now());
    expect(counts).toEqual({ codes: 2, grants: 0, refreshTokens: 0, clients: 1 });
    expect(await h.storage.oauthClients.get(unapproved)).toBeNull();
    expect(await h.storage.oauthClients.get(approved)).not.toBeNull();
    // The spent refresh token is kept until it would have expired: a replay still revokes the grant.
    expect(
      (await h.token({ grant_type: "refresh_token", client_id: approved, refresh_token: tokens.refresh_token })).json
        .error,
    ).toBe("invalid_grant");
    expect(await h.principalOf(rotated.json.access_token)).toBeNull();
    h.clock.advance(31 * DAY);
    expect(await purgeExpiredOAuthRecords(h.storage, h.clock.now())).toEqual({
      codes: 0,
      grants: 1,
      refreshTokens: 2,
      clients: 0,
    });
  });
});

describe("purgeExpiredOAuthRecords's limit", () => {
  it("refuses a limit that is not a positive whole number, naming it", async () => {
    const storage = memoryStorage();
    for (const limit of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(purgeExpiredOAuthRecords(storage, new Date(), { limit })).rejects.toMatchObject({
        code: "invalid_argument",
        reasons: [{ field: "limit", reason: expect.stringContaining("positive whole number") }],
      });
    }
    expect(await purgeExpiredOAuthRecords(storage, new Date(), { limit: 1 })).toEqual({
      codes: 0,
      grants: 0,
      refreshTokens: 0,
      clients: 0,
    });
  });
});

describe("OAuth registration limits (item 6)", () => {
  it("bounds the body and the number of redirect URIs", async () => {
    h = await startOAuthHarness({ oauth: { registration: { maxBodyBytes: 8192, maxRedirectUris: 3 } } });
    const many = Array.from({ length: 4 }, (_, i) => `http://127.0.0.1/cb${i}`);
    expect(await h.register({ redirect_uris: many })).toMatchObject({
      status: 400,
      json: { error: "invalid_redirect_uri" },
    });
    expect((await h.register({ client_name: "x".repeat(10_000) })).status).toBe(413);
    expect((await h.register({ redirect_uris: [`https://app.example.com/${"a".repeat(2100)}`] })).json.error).toBe(
      "invalid_redirect_uri",
    );
  });

  it("rate-limits registrations with a per-process token bucket, keyed by the key function", async () => {
    h = await startOAuthHarness({
      oauth: {
        registration: {
          rateLimit: { burst: 2, perHour: 60, key: (request) => request.headers.get("x-client") ?? "*" },
        },
      },
    });
    expect((await h.register()).status).toBe(201);
    expect((await h.register()).status).toBe(201);
    const limited = await h.register();
    expect(limited).toMatchObject({ status: 429, json: { error: "too_many_requests" } });
    expect(limited.headers.get("retry-after")).toBe("60");
    const other = await fetch(`${h.base}/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-client": "b" },
      body: JSON.stringify({ redirect_uris: ["http://127.0.0.1/cb"], token_endpoint_auth_method: "none" }),
    });
    expect(other.status).toBe(201);
    h.clock.advance(60_000);
    expect((await h.register()).status).toBe(201);
    expect((await h.register()).status).toBe(429);
  });
});

describe("OAuth URLs and metadata (item 7)", () => {
  it("never lets a cache keep metadata derived from Host", async () => {
    h = await startOAuthHarness();
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"]) {
      const response = await fetch(`${h.base}${path}`);
      expect(response.headers.get("cache-control"), path).toBe("no-store");
      expect(response.headers.get("vary"), path).toContain("Host");
    }
  });

  it("caches configured metadata; the issuer defaults to publicUrl's origin; each metadata URL describes the resource it names", async () => {
    h = await startOAuthHarness({
      oauth: { publicUrl: "https://api.example.com/mcp", additionalResources: ["https://api.example.com/"] },
    });
    const mcp = await fetch(`${h.base}/.well-known/oauth-protected-resource/mcp`);
    expect(mcp.headers.get("cache-control")).toBe("public, max-age=300");
    expect(await mcp.json()).toMatchObject({
      resource: "https://api.example.com/mcp",
      authorization_servers: ["https://api.example.com"],
    });
    expect(await (await fetch(`${h.base}/.well-known/oauth-protected-resource`)).json()).toMatchObject({
      resource: "https://api.example.com/",
    });
    expect((await fetch(`${h.base}/.well-known/oauth-protected-resource/other`)).status).toBe(404);
    expect(await (await fetch(`${h.base}/.well-known/oauth-authorization-server`)).json()).toMatchObject({
      issuer: "https://api.example.com",
    });
  });

  it("answers a registration with every registered field, defaults included (RFC 7591 §3.2.1)", async () => {
    h = await startOAuthHarness();
    const response = await fetch(`${h.base}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["https://app.example.com/cb"] }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      redirect_uris: ["https://app.example.com/cb"],
      token_endpoint_auth_method: "client_secret_basic",
      grant_types: ["authorization_code"],
      response_types: ["code"],
      scope:
        "catalog:read customers:read customers:write conversations:read conversations:write inventory:read quotes:write",
      client_secret_expires_at: 0,
    });
  });
});
