import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newVerifier, startOAuthHarness, type OAuthHarness } from "./support/oauth-harness.js";

const REDIRECT = "http://127.0.0.1:9999/callback";

describe("OAuth refusals", () => {
  let h: OAuthHarness;
  let clientId: string;
  const exchange = (code: string, verifier: string, over: Record<string, string> = {}) =>
    h.token({
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      ...over,
    });

  beforeAll(async () => {
    h = await startOAuthHarness();
    clientId = (await h.register()).json.client_id;
  });
  afterAll(async () => h?.close());

  it("refuses a wrong PKCE verifier, and the code is spent", async () => {
    const { code, verifier } = await h.obtainCode(clientId);
    const wrong = await exchange(code, newVerifier());
    expect(wrong).toMatchObject({
      status: 400,
      json: { error: "invalid_grant", error_description: expect.stringContaining("code_verifier") },
    });
    expect(wrong.headers.get("cache-control")).toBe("no-store");
    expect((await exchange(code, verifier)).json.error).toBe("invalid_grant");
  });

  it("refuses plain PKCE and a missing challenge, back on the redirect URI with the state", async () => {
    const plain = await h.authorize(clientId, { code_challenge: newVerifier(), code_challenge_method: "plain" });
    expect(plain.response.status).toBe(302);
    expect(Object.fromEntries(plain.location!.searchParams)).toMatchObject({
      error: "invalid_request",
      state: "st-123",
    });
    expect(plain.location!.searchParams.get("error_description")).toContain("S256");
    const none = await h.authorize(clientId, { code_challenge: null, code_challenge_method: null });
    expect(none.location!.searchParams.get("error")).toBe("invalid_request");
  });

  it("refuses a code used twice and revokes the tokens of its first use", async () => {
    const { code, verifier } = await h.obtainCode(clientId);
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    expect((await h.callMcp(first.json.access_token)).status).toBe(200);
    expect((await exchange(code, verifier)).json).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringContaining("already used"),
    });
    expect((await h.callMcp(first.json.access_token)).status).toBe(401);
    expect(
      (await h.token({ grant_type: "refresh_token", client_id: clientId, refresh_token: first.json.refresh_token }))
        .json.error,
    ).toBe("invalid_grant");
  });

  it("refuses a code presented by another client or with another redirect URI", async () => {
    const other = (await h.register({ redirect_uris: [REDIRECT, "http://127.0.0.1:9999/other"] })).json.client_id;
    const stolen = await h.obtainCode(clientId);
    expect((await exchange(stolen.code, stolen.verifier, { client_id: other })).json).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringContaining("another client"),
    });
    const otherClientCode = await h.obtainCode(other, { redirect_uri: "http://127.0.0.1:9999/other" });
    const mismatch = await exchange(otherClientCode.code, otherClientCode.verifier, {
      client_id: other,
      redirect_uri: REDIRECT,
    });
    expect(mismatch.json).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringContaining("redirect_uri"),
    });
  });

  it("refuses a code after 60 seconds (manual clock)", async () => {
    const { code, verifier } = await h.obtainCode(clientId);
    h.clock.advance(61_000);
    expect((await exchange(code, verifier)).json).toMatchObject({
      error: "invalid_grant",
      error_description: "authorization code expired",
    });
  });

  it("rotates refresh tokens; reusing an old one revokes the whole family", async () => {
    const tokens = await h.obtainTokens(clientId);
    const refresh = (refreshToken: string, over: Record<string, string> = {}) =>
      h.token({ grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken, ...over });
    const second = await refresh(tokens.refresh_token);
    expect(second.status).toBe(200);
    const third = await refresh(second.json.refresh_token);
    expect(third.status).toBe(200);
    expect((await h.callMcp(third.json.access_token)).status).toBe(200);
    // The first refresh token again: theft detected, the whole grant goes.
    expect((await refresh(tokens.refresh_token)).json).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringContaining("revoked"),
    });
    expect((await refresh(third.json.refresh_token)).json.error).toBe("invalid_grant");
    expect((await h.callMcp(third.json.access_token)).status).toBe(401);
    expect((await h.callMcp(tokens.access_token)).status).toBe(401);
  });

  it("refuses a refresh token presented by another client, and one past its 30 days", async () => {
    const tokens = await h.obtainTokens(clientId);
    const other = (await h.register()).json.client_id;
    const stolen = await h.token({
      grant_type: "refresh_token",
      client_id: other,
      refresh_token: tokens.refresh_token,
    });
    expect(stolen.json).toMatchObject({
      error: "invalid_grant",
      error_description: expect.stringContaining("another client"),
    });
    const fresh = await h.obtainTokens(clientId);
    h.clock.advance(30 * 24 * 3600_000 + 1000);
    const expired = await h.token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: fresh.refresh_token,
    });
    expect(expired.json).toMatchObject({ error: "invalid_grant", error_description: "refresh token expired" });
  });

  it("never widens scope on refresh, but may narrow it", async () => {
    const tokens = await h.obtainTokens(clientId, { scope: "catalog:read customers:read" });
    const wider = await h.token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: tokens.refresh_token,
      scope: "catalog:read customers:write",
    });
    expect(wider.json).toMatchObject({ error: "invalid_scope" });
    const another = await h.obtainTokens(clientId, { scope: "catalog:read customers:read" });
    const narrower = await h.token({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: another.refresh_token,
      scope: "catalog:read",
    });
    expect(narrower.json.scope).toBe("catalog:read");
  });

  it("refuses a token issued for another resource (audience)", async () => {
    await h.close();
    h = await startOAuthHarness({ oauth: { additionalResources: ["https://reports.example.com/api"] } });
    clientId = (await h.register()).json.client_id;
    const foreign = await h.obtainTokens(clientId, { resource: "https://reports.example.com/api" });
    const refused = await h.callMcp(foreign.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${h.base}/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="The access token is invalid, expired, revoked or for another resource"`,
    );
    const unknown = await h.authorize(clientId, { resource: "https://evil.example.com/mcp" });
    expect(unknown.location!.searchParams.get("error")).toBe("invalid_target");
  });

  it("answers 403 insufficient_scope naming the scope when the token lacks it", async () => {
    const tokens = await h.obtainTokens(clientId, { scope: "customers:read" });
    expect((await h.callMcp(tokens.access_token)).status).toBe(200);
    const refused = await h.callMcp(tokens.access_token, "tools/call", {
      name: "query_catalog",
      arguments: { query: "casa" },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope", scope="catalog:read"');
  });

  it("answers 401 with only resource_metadata when no token was sent", async () => {
    const refused = await h.callMcp(null);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${h.base}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it("refuses an unregistered redirect URI without redirecting to it", async () => {
    const { response, location } = await h.authorize(clientId, { redirect_uri: "http://127.0.0.1:9999/attacker" });
    expect(response.status).toBe(400);
    expect(location).toBeNull();
    expect(await response.json()).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringContaining("not registered"),
    });
    const prefix = await h.authorize(clientId, { redirect_uri: `${REDIRECT}/more` });
    expect(prefix.response.status).toBe(400);
  });

  it("refuses scopes the client may not ask for", async () => {
    const narrow = (await h.register({ scope: "catalog:read" })).json.client_id;
    const tokens = await h.obtainTokens(narrow, { scope: null });
    expect(tokens.scope).toBe("catalog:read");
    // Approved by a user now, so the refusal goes back to its redirect URI.
    const asked = await h.authorize(narrow, { scope: "catalog:read customers:write" });
    expect(asked.location!.searchParams.get("error")).toBe("invalid_scope");
  });

  it("answers RFC 6749 errors for a bad grant type, a missing parameter and an unknown client", async () => {
    expect((await h.token({ grant_type: "password", client_id: clientId })).json.error).toBe("unsupported_grant_type");
    expect((await h.token({ grant_type: "authorization_code", client_id: clientId })).json).toMatchObject({
      error: "invalid_request",
    });
    const unknown = await h.token({ grant_type: "authorization_code", client_id: "nobody", code: "x" });
    expect(unknown).toMatchObject({ status: 401, json: { error: "invalid_client" } });
  });
});
