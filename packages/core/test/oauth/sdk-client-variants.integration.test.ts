import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthHarness, type OAuthHarness } from "./support/oauth-harness.js";
import { TestClientProvider } from "./support/sdk-client-provider.js";

/** A native client's callback listener on a free loopback port; resolves with the query it receives. */
async function listenForCallback() {
  let deliver!: (query: URLSearchParams) => void;
  const received = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
  const server = createServer((request, response) => {
    deliver(new URL(request.url!, "http://127.0.0.1").searchParams);
    response.end("You can close this window.");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The SDK's whole flow: register, authorize ("browser" = fetch), exchange, call a tool, refresh. */
async function runSdkFlow(h: OAuthHarness, provider: TestClientProvider, openInBrowser: (url: URL) => Promise<string>) {
  expect(await auth(provider, { serverUrl: h.mcpUrl })).toBe("REDIRECT");
  const code = await openInBrowser(provider.authorizationUrl!);
  expect(await auth(provider, { serverUrl: h.mcpUrl, authorizationCode: code })).toBe("AUTHORIZED");
  const client = new Client({ name: "sdk-variant", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(h.mcpUrl), { authProvider: provider }));
  expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  await client.close();
  const first = provider.saved!;
  expect(await auth(provider, { serverUrl: h.mcpUrl })).toBe("AUTHORIZED");
  expect(provider.saved!.refresh_token).not.toBe(first.refresh_token);
  expect((await h.callMcp(provider.saved!.access_token)).status).toBe(200);
}

/** Follows the authorization redirect without leaving fetch: the code as the client would read it. */
async function codeFromRedirect(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!).searchParams.get("code")!;
}

describe("OAuth with the official MCP SDK client: native, confidential and private-use-scheme clients", () => {
  let h: OAuthHarness;
  beforeAll(async () => {
    h = await startOAuthHarness();
  });
  afterAll(async () => h?.close());

  it("a public client registered at http://127.0.0.1/callback (no port) listening on a free port", async () => {
    const listener = await listenForCallback();
    try {
      const provider = new TestClientProvider({
        registeredRedirectUri: "http://127.0.0.1/callback",
        redirectUrl: `http://127.0.0.1:${listener.port}/callback`,
      });
      await runSdkFlow(h, provider, async (url) => {
        await fetch(url); // follows the 302 to the listener, as the browser would
        const query = await listener.received;
        expect(query.get("state")).toBe("sdk-state-42");
        return query.get("code")!;
      });
      expect(provider.information).toMatchObject({ redirect_uris: ["http://127.0.0.1/callback"] });
    } finally {
      await listener.close();
    }
  });

  for (const authMethod of ["client_secret_basic", "client_secret_post"] as const) {
    it(`a confidential client authenticating with ${authMethod}`, async () => {
      const provider = new TestClientProvider({ authMethod, redirectUrl: "https://app.example.com/oauth/callback" });
      await runSdkFlow(h, provider, codeFromRedirect);
      expect(provider.information).toMatchObject({
        token_endpoint_auth_method: authMethod,
        client_secret: expect.stringMatching(/^vtr_ocs_/),
      });
    });
  }

  it("a public client with a private-use scheme redirect URI (Cursor)", async () => {
    const provider = new TestClientProvider({
      clientName: "Cursor",
      redirectUrl: "cursor://anysphere.cursor-mcp/oauth/callback",
    });
    await runSdkFlow(h, provider, async (url) => {
      const response = await fetch(url, { redirect: "manual" });
      const location = response.headers.get("location")!;
      expect(location.startsWith("cursor://anysphere.cursor-mcp/oauth/callback?")).toBe(true);
      return new URL(location).searchParams.get("code")!;
    });
  });
});
