import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthHarness, type OAuthHarness } from "../oauth/support/oauth-harness.js";

// REST is a second protected resource (RFC 8707, RFC 9728): a token names the resource it was
// issued for, and each surface accepts only its own, so an MCP token can't be replayed on REST.
describe("REST as an OAuth protected resource", () => {
  let h: OAuthHarness;
  let restUrl: string;
  beforeAll(async () => {
    h = await startOAuthHarness({ rest: { enabled: true } });
    restUrl = `${h.base}/v1/rest`;
  });
  afterAll(() => h.close());

  const callRest = (token: string) =>
    fetch(`${restUrl}/catalog.search?limit=1`, { headers: { authorization: `Bearer ${token}` } });

  it("publishes its own protected-resource metadata, and lists it among the server's well-known paths", async () => {
    const response = await fetch(`${h.base}/.well-known/oauth-protected-resource/v1/rest`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ resource: restUrl, authorization_servers: [h.base] });
    expect(h.vitrina.wellKnownPaths).toContain("/.well-known/oauth-protected-resource/v1/rest");
  });

  it("accepts a token issued for the REST resource on REST only", async () => {
    const { client_id } = (await h.register()).json;
    const { access_token } = await h.obtainTokens(client_id, { resource: restUrl, scope: "catalog:read" });
    const rest = await callRest(access_token);
    expect(rest.status).toBe(200);
    expect((await rest.json()).output).toEqual([]);
    expect((await h.callMcp(access_token)).status).toBe(401);
  });

  it("refuses a token issued for the MCP resource on REST, saying the token is the problem", async () => {
    const { client_id } = (await h.register()).json;
    const { access_token } = await h.obtainTokens(client_id, { scope: "catalog:read" });
    expect((await h.callMcp(access_token)).status).toBe(200);
    const rest = await callRest(access_token);
    expect(rest.status).toBe(401);
    expect((await rest.json()).error.code).toBe("unauthorized");
    expect(rest.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${h.base}/.well-known/oauth-protected-resource/v1/rest", error="invalid_token", error_description="The access token is invalid, expired, revoked or for another resource"`,
    );
  });

  it("answers a call without a token with a 401 naming REST's own metadata, which leads to the authorization server (RFC 9728 §5.1)", async () => {
    const refused = await fetch(`${restUrl}/catalog.search?limit=1`);
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get("www-authenticate");
    expect(challenge).toBe(`Bearer resource_metadata="${h.base}/.well-known/oauth-protected-resource/v1/rest"`);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge ?? "")?.[1];
    expect(await (await fetch(metadataUrl!)).json()).toMatchObject({
      resource: restUrl,
      authorization_servers: [h.base],
    });
  });
});
