import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthHarness, type OAuthHarness } from "../oauth/support/oauth-harness.js";

const ONE_SEARCH = {
  message: {
    messageId: "m-1",
    role: "ROLE_USER",
    parts: [{ data: { capability: "catalog.search", input: { limit: 1 } }, mediaType: "application/json" }],
  },
};

// A2A is a protected resource of its own (RFC 8707, RFC 9728), beside /mcp and REST: a token names
// the resource it was issued for, and each surface accepts only its own.
describe("A2A as an OAuth protected resource", () => {
  let h: OAuthHarness;
  let a2aUrl: string;
  let restUrl: string;
  beforeAll(async () => {
    h = await startOAuthHarness({ a2a: { enabled: true }, rest: { enabled: true } });
    a2aUrl = `${h.base}/a2a`;
    restUrl = `${h.base}/v1/rest`;
  });
  afterAll(() => h.close());

  const callA2a = async (token: string | null) => {
    const response = await fetch(a2aUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "a2a-version": "1.0",
        ...(token !== null && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "SendMessage", params: ONE_SEARCH }),
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as any };
  };
  const callRest = (token: string) =>
    fetch(`${restUrl}/catalog.search?limit=1`, { headers: { authorization: `Bearer ${token}` } });
  const tokenFor = async (resource: string | null, scope = "catalog:read") => {
    const { client_id } = (await h.register()).json;
    return (await h.obtainTokens(client_id, { ...(resource !== null && { resource }), scope })).access_token;
  };

  it("publishes its own protected-resource metadata, among the server's well-known paths", async () => {
    const response = await fetch(`${h.base}/.well-known/oauth-protected-resource/a2a`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ resource: a2aUrl, authorization_servers: [h.base] });
    expect(h.vitrina.wellKnownPaths).toEqual(
      expect.arrayContaining([
        "/.well-known/oauth-protected-resource/a2a",
        "/.well-known/oauth-protected-resource/v1/rest",
        "/.well-known/agent-card.json",
      ]),
    );
  });

  it("accepts a token issued for the A2A resource on A2A only: MCP and REST refuse it", async () => {
    const token = await tokenFor(a2aUrl);
    const a2a = await callA2a(token);
    expect(a2a.status).toBe(200);
    expect(a2a.json.result.message.parts[0].data).toEqual([]);
    expect((await h.callMcp(token)).status).toBe(401);
    expect((await callRest(token)).status).toBe(401);
  });

  it.each([
    ["MCP", null],
    ["REST", "/v1/rest"],
  ])("refuses a token issued for %s at A2A, saying the token is the problem", async (_surface, path) => {
    const token = await tokenFor(path === null ? null : `${h.base}${path}`);
    // The token works where it was issued for.
    if (path === null) expect((await h.callMcp(token)).status).toBe(200);
    else expect((await callRest(token)).status).toBe(200);
    const refused = await callA2a(token);
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe(-32000);
    expect(refused.json.error.data[0]).toMatchObject({ reason: "UNAUTHORIZED", metadata: { code: "unauthorized" } });
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${h.base}/.well-known/oauth-protected-resource/a2a", error="invalid_token", error_description="The access token is invalid, expired, revoked or for another resource"`,
    );
  });

  it("answers a call without a credential with a 401 naming A2A's own metadata (RFC 9728 §5.1)", async () => {
    const refused = await callA2a(null);
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    const challenge = refused.headers.get("www-authenticate");
    expect(challenge).toBe(`Bearer resource_metadata="${h.base}/.well-known/oauth-protected-resource/a2a"`);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge ?? "")?.[1];
    expect(await (await fetch(metadataUrl!)).json()).toMatchObject({ resource: a2aUrl });
  });

  it("answers a token without the capability's scope with 403 and a step-up challenge naming the scope", async () => {
    const token = await tokenFor(a2aUrl, "customers:read");
    const refused = await callA2a(token);
    expect(refused.status).toBe(403);
    expect(refused.json.error.data[0].metadata.code).toBe("insufficient_scope");
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope", scope="catalog:read"');
    expect(refused.headers.get("www-authenticate")).toContain("/.well-known/oauth-protected-resource/a2a");
  });
});
