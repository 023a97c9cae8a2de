import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, startOAuthHarness, type OAuthHarness } from "./support/oauth-harness.js";

// A 401 says what to fix for the credential actually sent: an OAuth client holding an expired
// access token must be told to refresh or authorize again, not that an "API key" is unknown.
describe("the 401 of a bad bearer credential names the kind that was sent", () => {
  let h: OAuthHarness;
  let restUrl: string;
  beforeAll(async () => {
    h = await startOAuthHarness({ rest: { enabled: true } });
    restUrl = `${h.base}/v1/rest`;
  });
  afterAll(() => h.close());

  const callRest = (authorization: string | null) =>
    fetch(`${restUrl}/catalog.search?limit=1`, {
      headers: authorization === null ? {} : { authorization },
    });
  const restChallenge = (error: boolean) =>
    `Bearer resource_metadata="${h.base}/.well-known/oauth-protected-resource/v1/rest"` +
    (error
      ? `, error="invalid_token", error_description="The access token is invalid, expired, revoked or for another resource"`
      : "");

  it("REST: an expired access token is told to refresh or authorize again (invalid_token challenge kept)", async () => {
    const { client_id } = (await h.register()).json;
    const tokens = await h.obtainTokens(client_id, { resource: restUrl, scope: "catalog:read" });
    expect((await callRest(`Bearer ${tokens.access_token}`)).status).toBe(200);
    h.clock.advance(tokens.expires_in * 1000 + 1000);

    const refused = await callRest(`Bearer ${tokens.access_token}`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(restChallenge(true));
    const { error } = await refused.json();
    expect(error.code).toBe("unauthorized");
    expect(error.message).toMatch(/access token/);
    expect(error.message).toMatch(/refresh it or authorize again/);
    expect(error.message).not.toMatch(/API key/);
  });

  it("REST: an unknown API key is still told about API keys; no credential is told both kinds work", async () => {
    const unknownKey = await callRest("Bearer vtr_live_not_a_real_key");
    expect(unknownKey.status).toBe(401);
    expect(unknownKey.headers.get("www-authenticate")).toBe(restChallenge(true));
    expect((await unknownKey.json()).error).toMatchObject({
      code: "unauthorized",
      message: "the API key is unknown or revoked",
    });

    const none = await callRest(null);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe(restChallenge(false));
    expect((await none.json()).error.message).toBe(
      "send an API key or an OAuth access token as `Authorization: Bearer <token>`",
    );
  });

  it("MCP: an expired access token gets the same advice in the JSON-RPC error, with the invalid_token challenge", async () => {
    const { client_id } = (await h.register()).json;
    const tokens = await h.obtainTokens(client_id, { scope: "catalog:read" });
    expect((await h.callMcp(tokens.access_token)).status).toBe(200);
    h.clock.advance(tokens.expires_in * 1000 + 1000);

    const refused = await h.callMcp(tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${h.base}/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="The access token is invalid, expired, revoked or for another resource"`,
    );
    const { error } = await refused.json();
    expect(error).toMatchObject({ code: -32000, data: { code: "unauthorized" } });
    expect(error.message).toMatch(/access token.*refresh it or authorize again/);

    const unknownKey = await h.callMcp("vtr_live_not_a_real_key");
    expect((await unknownKey.json()).error.message).toBe("the API key is unknown or revoked");
  });

  it("the API-key-only webhook API keeps its API-key wording (OAuth tokens are not accepted there)", async () => {
    const { secret } = await h.vitrina.apiKeys.issue({ userId: OWNER }, h.workspace.id, {
      name: "ERP",
      scopes: ["webhooks:read"],
    });
    expect((await fetch(`${h.base}/v1/webhooks`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    const refused = await fetch(`${h.base}/v1/webhooks`, { headers: { authorization: "Bearer vtr_live_revoked" } });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toBe("the API key is unknown or revoked");
  });

  it("the webhook and admin APIs tell a valid OAuth access token that they take API keys, and where it works", async () => {
    const { client_id } = (await h.register()).json;
    const tokens = await h.obtainTokens(client_id, { resource: restUrl, scope: "catalog:read" });
    expect((await callRest(`Bearer ${tokens.access_token}`)).status).toBe(200);
    for (const path of ["/v1/webhooks", "/v1/connectors", "/v1/admin/me"]) {
      const refused = await fetch(`${h.base}${path}`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(refused.status, path).toBe(401);
      expect(refused.headers.get("www-authenticate"), path).toBe('Bearer realm="vitrina", error="invalid_token"');
      expect((await refused.json()).error, path).toMatchObject({
        code: "unauthorized",
        message:
          "this route takes an API key, not an OAuth access token (only the MCP endpoint and the REST surface accept those): send an API key as `Authorization: Bearer <API_KEY>`",
      });
    }
  });
});
