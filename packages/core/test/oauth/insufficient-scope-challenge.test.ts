import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, startOAuthHarness, type OAuthHarness } from "./support/oauth-harness.js";

// RFC 6750 §3.1 and RFC 9728 §5.1 (and MCP's authorization spec: 403 for insufficient scopes): an
// OAuth caller refused for a missing scope learns which scopes to ask for, and where the surface's
// metadata (hence its authorization server) is, so it can step up without guessing. API-key
// callers can't step up (a key's scopes are fixed when it is issued): their 403 is unchanged.
describe("403 insufficient_scope carries the step-up hints for OAuth callers", () => {
  let h: OAuthHarness;
  let restUrl: string;
  let clientId: string;
  beforeAll(async () => {
    h = await startOAuthHarness({ rest: { enabled: true } });
    restUrl = `${h.base}/v1/rest`;
    clientId = (await h.register()).json.client_id;
  });
  afterAll(() => h.close());

  const callRest = (token: string) =>
    fetch(`${restUrl}/catalog.search?limit=1`, { headers: { authorization: `Bearer ${token}` } });
  const apiKey = async (scopes: string[]) =>
    (await h.vitrina.apiKeys.issue({ userId: OWNER }, h.workspace.id, { name: "ERP", scopes })).secret;

  it("REST: names the capability's scopes and REST's own metadata URL, the one its 401 names", async () => {
    const { access_token } = await h.obtainTokens(clientId, { resource: restUrl, scope: "customers:read" });
    const refused = await callRest(access_token);
    expect(refused.status).toBe(403);
    const metadataUrl = `${h.base}/.well-known/oauth-protected-resource/v1/rest`;
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", scope="catalog:read", resource_metadata="${metadataUrl}"`,
    );
    expect((await fetch(`${restUrl}/catalog.search`)).headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${metadataUrl}"`,
    );
    expect((await refused.json()).error).toMatchObject({
      code: "insufficient_scope",
      reasons: [{ field: "scopes", reason: "missing catalog:read" }],
    });
  });

  it("REST: an API key's 403 keeps its challenge, and its body names the missing scope", async () => {
    const refused = await callRest(await apiKey(["customers:read"]));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="vitrina", error="insufficient_scope"');
    const { error } = await refused.json();
    expect(error).toMatchObject({
      code: "insufficient_scope",
      reasons: [{ field: "scopes", reason: "missing catalog:read" }],
    });
    expect(error.message).toContain("catalog:read");
  });

  it("MCP: a tools/call 403 (HTTP, before the tool runs) adds /mcp's metadata URL for an OAuth caller", async () => {
    const { access_token } = await h.obtainTokens(clientId, { scope: "customers:read" });
    const refused = await h.callMcp(access_token, "tools/call", {
      name: "query_catalog",
      arguments: { query: "casa" },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", scope="catalog:read", resource_metadata="${h.base}/.well-known/oauth-protected-resource/mcp", error_description="query_catalog needs one of: catalog:read"`,
    );
    expect(await refused.json()).toMatchObject({
      id: 1,
      error: { code: -32000, data: { code: "insufficient_scope" } },
    });
  });

  it("MCP: an API key's 403 keeps its challenge, without resource_metadata", async () => {
    const refused = await h.callMcp(await apiKey(["customers:read"]), "tools/call", {
      name: "query_catalog",
      arguments: { query: "casa" },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe(
      'Bearer error="insufficient_scope", scope="catalog:read", error_description="query_catalog needs one of: catalog:read"',
    );
  });
});
