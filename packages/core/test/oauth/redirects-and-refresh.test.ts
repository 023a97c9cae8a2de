import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthHarness, type OAuthHarness } from "./support/oauth-harness.js";

const LOOPBACK_NO_PORT = "http://127.0.0.1/cb";
const CURSOR = "cursor://anysphere.cursor-mcp/oauth/callback";

describe("OAuth: refused refreshes, loopback ports, private-use schemes, no open redirect", () => {
  let h: OAuthHarness;
  let clientId: string;
  beforeAll(async () => {
    h = await startOAuthHarness();
    clientId = (await h.register()).json.client_id;
  });
  afterAll(async () => h?.close());

  const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
    h.token({ grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken, ...extra });

  it("1. a refused refresh (wrong resource, wider or unknown scope) does not spend the token: the corrected retry works", async () => {
    const tokens = await h.obtainTokens(clientId, { scope: "catalog:read inventory:read" });
    expect((await refresh(tokens.refresh_token, { resource: "https://elsewhere.example/mcp" })).json.error).toBe(
      "invalid_target",
    );
    expect((await refresh(tokens.refresh_token, { scope: "catalog:read customers:write" })).json.error).toBe(
      "invalid_scope",
    );
    expect((await refresh(tokens.refresh_token, { scope: "no-such:scope" })).json.error).toBe("invalid_scope");
    expect(await h.principalOf(tokens.access_token)).not.toBeNull();
    const retry = await refresh(tokens.refresh_token, { resource: h.mcpUrl, scope: "catalog:read" });
    expect(retry).toMatchObject({ status: 200, json: { scope: "catalog:read" } });
    expect(await h.principalOf(retry.json.access_token)).toMatchObject({ scopes: ["catalog:read"] });
    // The token is spent now: presenting it again is still theft and ends the grant.
    expect((await refresh(tokens.refresh_token)).json.error).toBe("invalid_grant");
    expect(await h.principalOf(retry.json.access_token)).toBeNull();
  });

  it("2. a loopback redirect URI registered without a port is used with any port (RFC 8252 §7.3)", async () => {
    const id = (await h.register({ redirect_uris: [LOOPBACK_NO_PORT] })).json.client_id;
    const { location, verifier } = await h.authorize(id, { redirect_uri: "http://127.0.0.1:5555/cb" });
    expect(`${location!.origin}${location!.pathname}`).toBe("http://127.0.0.1:5555/cb");
    const code = location!.searchParams.get("code")!;
    const exchanged = await h.token({
      grant_type: "authorization_code",
      client_id: id,
      code,
      code_verifier: verifier,
      redirect_uri: "http://127.0.0.1:5555/cb",
    });
    expect(exchanged.status).toBe(200);
    // Registered with one port, used with another, also fine; path, query and host still exact.
    expect(
      (await h.authorize(clientId, { redirect_uri: "http://127.0.0.1:41234/callback" })).location?.searchParams.get(
        "code",
      ),
    ).toBeTruthy();
    for (const wrong of [
      "http://127.0.0.1:5555/cb2",
      "http://127.0.0.1:5555/cb?x=1",
      "http://[::1]:5555/cb",
      "http://127.0.0.1:5555/x/../cb",
      "http://127.0.0.1:5555/CB",
    ]) {
      const { response, location: sent } = await h.authorize(id, { redirect_uri: wrong });
      expect(response.status, wrong).toBe(400);
      expect(sent).toBeNull();
    }
    const web = (await h.register({ redirect_uris: ["https://app.example.com/cb"] })).json.client_id;
    expect((await h.authorize(web, { redirect_uri: "https://app.example.com:8443/cb" })).response.status).toBe(400);
  });

  it("3. a public client may register a private-use scheme (Cursor); dangerous schemes and confidential clients may not", async () => {
    const cursor = await h.register({ client_name: "Cursor", redirect_uris: [CURSOR] });
    expect(cursor).toMatchObject({ status: 201, json: { redirect_uris: [CURSOR] } });
    const { location } = await h.authorize(cursor.json.client_id, { redirect_uri: CURSOR });
    expect(location!.href.startsWith(`${CURSOR}?code=`)).toBe(true);

    const confidential = await h.register({
      redirect_uris: [CURSOR],
      token_endpoint_auth_method: "client_secret_basic",
    });
    expect(confidential).toMatchObject({ status: 400, json: { error: "invalid_redirect_uri" } });
    for (const uri of [
      "javascript:alert(1)",
      "data:text/html,hi",
      "file:///etc/passwd",
      "cursor://x/cb#frag",
      "https://app.example.com/cb#f",
      "http://app.example.com/cb",
      "vbscript:msgbox",
    ]) {
      const refused = await h.register({ redirect_uris: [uri] });
      expect(refused.status, uri).toBe(400);
      expect(refused.json.error, uri).toBe("invalid_redirect_uri");
    }
  });

  it("4. an invalid request of a client no user approved gets an error page, never a redirect (RFC 9700 §4.11.2)", async () => {
    const evil = (await h.register({ redirect_uris: ["https://evil.example/landing"] })).json.client_id;
    const invalid: Array<Record<string, string | null>> = [
      { response_type: "x" },
      { code_challenge: null },
      { scope: "webhooks:write" },
      { resource: "https://other.example/mcp" },
    ];
    for (const params of invalid) {
      const { response, location } = await h.authorize(evil, {
        redirect_uri: "https://evil.example/landing",
        ...params,
      });
      expect(response.status, JSON.stringify(params)).toBe(400);
      expect(location).toBeNull();
      expect(((await response.json()) as { error: string }).error).toMatch(
        /^(unsupported_response_type|invalid_request|invalid_scope|invalid_target)$/,
      );
    }
    // Once a user approved the client (a code was issued), errors go back to it as OAuth says.
    await h.obtainTokens(clientId);
    const { location } = await h.authorize(clientId, { response_type: "x" });
    expect(location!.searchParams.get("error")).toBe("unsupported_response_type");
    expect((await h.storage.oauthClients.get(clientId))?.approvedAt).toEqual(expect.any(String));
    expect((await h.storage.oauthClients.get(evil))?.approvedAt).toBeNull();
  });
});

describe("OAuth: refresh token reuse interval", () => {
  it("lets a spent refresh token back within refreshTokenReuseIntervalSeconds (a lost response), not after", async () => {
    const h = await startOAuthHarness({ oauth: { refreshTokenReuseIntervalSeconds: 30 } });
    try {
      const clientId = (await h.register()).json.client_id;
      const tokens = await h.obtainTokens(clientId);
      const form = { grant_type: "refresh_token", client_id: clientId, refresh_token: tokens.refresh_token };
      const first = await h.token(form);
      h.clock.advance(10_000);
      const lostResponseRetry = await h.token(form);
      expect([first.status, lostResponseRetry.status]).toEqual([200, 200]);
      expect(await h.principalOf(first.json.access_token)).not.toBeNull();
      h.clock.advance(25_000);
      expect((await h.token(form)).json.error).toBe("invalid_grant");
      expect(await h.principalOf(lostResponseRetry.json.access_token)).toBeNull();
    } finally {
      await h.close();
    }
  });
});
