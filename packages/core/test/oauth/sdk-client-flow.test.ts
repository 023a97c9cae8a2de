import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, startOAuthHarness, type OAuthHarness } from "./support/oauth-harness.js";
import { TestClientProvider } from "./support/sdk-client-provider.js";

/** Plays the browser: open the authorization URL (the consent hook approves), read the redirect. */
async function followAuthorization(url: URL) {
  const response = await fetch(url, { redirect: "manual" });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!);
}

describe("OAuth 2.1 with the official MCP SDK client against the real /mcp", () => {
  let h: OAuthHarness;
  beforeAll(async () => {
    h = await startOAuthHarness();
  });
  afterAll(async () => h?.close());

  it("discovers from the 401, registers, authorizes with PKCE, exchanges, lists tools, refreshes", async () => {
    const provider = new TestClientProvider();
    const client = new Client({ name: "sdk-test", version: "1.0.0" });
    // 1. Unauthenticated connect: the 401 names the resource metadata; the SDK discovers, registers
    //    and sends the "browser" to /authorize.
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(h.mcpUrl), { authProvider: provider })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.information?.client_id).toBeTypeOf("string");
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.pathname).toBe("/authorize");
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(h.mcpUrl);

    // 2. The redirect carries the code and our state back.
    const callback = await followAuthorization(authorizationUrl);
    expect(`${callback.origin}${callback.pathname}`).toBe(provider.redirectUrl);
    expect(callback.searchParams.get("state")).toBe("sdk-state-42");

    // 3. Token exchange through the SDK, then tools/list with the access token.
    const transport = new StreamableHTTPClientTransport(new URL(h.mcpUrl), { authProvider: provider });
    await transport.finishAuth(callback.searchParams.get("code")!);
    expect(provider.saved).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["query_catalog", "check_stock", "search_contacts", "get_contact"]),
    );
    const found = await client.callTool({ name: "search_contacts", arguments: { query: "María" } });
    expect(found.isError).not.toBe(true);
    expect(await h.principalOf(provider.saved!.access_token)).toMatchObject({
      kind: "oauth",
      workspaceId: h.workspace.id,
      subject: OWNER,
      clientId: provider.information!.client_id,
    });
    await client.close();

    // 4. Refresh through the SDK: a new pair, the old refresh token is spent.
    const first = provider.saved!;
    expect(await auth(provider, { serverUrl: h.mcpUrl })).toBe("AUTHORIZED");
    expect(provider.saved!.refresh_token).not.toBe(first.refresh_token);
    expect(provider.saved!.access_token).not.toBe(first.access_token);
    expect((await h.callMcp(provider.saved!.access_token)).status).toBe(200);
    const reuse = await h.token({
      grant_type: "refresh_token",
      client_id: provider.information!.client_id,
      refresh_token: first.refresh_token!,
    });
    expect(reuse.json.error).toBe("invalid_grant");
  });
});
