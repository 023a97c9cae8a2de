import {
  OAuthClientInformationFullSchema,
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, startOAuthHarness, type OAuthHarness } from "./support/oauth-harness.js";

describe("OAuth metadata, registration, client authentication, revocation, CORS", () => {
  let h: OAuthHarness;
  beforeAll(async () => {
    h = await startOAuthHarness();
  });
  afterAll(async () => h?.close());

  it("serves RFC 9728 metadata at the path-inserted form, valid for the SDK; the root names no resource here (§3.3)", async () => {
    const body = OAuthProtectedResourceMetadataSchema.parse(
      await (await fetch(`${h.base}/.well-known/oauth-protected-resource/mcp`)).json(),
    );
    expect(body).toMatchObject({
      resource: h.mcpUrl,
      authorization_servers: [h.base],
      bearer_methods_supported: ["header"],
      scopes_supported: [
        "catalog:read",
        "customers:read",
        "customers:write",
        "conversations:read",
        "conversations:write",
        "inventory:read",
        "quotes:write",
      ],
    });
    const root = await fetch(`${h.base}/.well-known/oauth-protected-resource`);
    expect(root.status).toBe(404);
    expect(((await root.json()) as { error_description: string }).error_description).toContain(
      "/.well-known/oauth-protected-resource/mcp",
    );
  });

  it("serves RFC 8414 metadata naming every endpoint, and a JWKS of public keys only", async () => {
    const metadata = OAuthMetadataSchema.parse(
      await (await fetch(`${h.base}/.well-known/oauth-authorization-server`)).json(),
    );
    expect(metadata).toMatchObject({
      issuer: h.base,
      authorization_endpoint: `${h.base}/authorize`,
      token_endpoint: `${h.base}/token`,
      registration_endpoint: `${h.base}/register`,
      revocation_endpoint: `${h.base}/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
    });
    const jwks = (await (await fetch(`${h.base}/.well-known/jwks.json`)).json()) as {
      keys: Array<Record<string, unknown>>;
    };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect(jwks.keys[0]).not.toHaveProperty("d");
  });

  it("serves RFC 8414 metadata at the issuer's own path only: any other inserted path is 404 (§3.1)", async () => {
    // Clients probe path-inserted URLs for issuers with a path; another issuer's must not get ours.
    for (const path of ["/other", "/mcp", "/tenant/a", "/.well-known/oauth-authorization-server"]) {
      const response = await fetch(`${h.base}/.well-known/oauth-authorization-server${path}`);
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { error: string; error_description: string }).error_description).toContain(
        `${h.base}/.well-known/oauth-authorization-server`,
      );
    }
    const trailingSlash = await fetch(`${h.base}/.well-known/oauth-authorization-server/`);
    expect(trailingSlash.status).toBe(200);
    expect(await trailingSlash.json()).toMatchObject({ issuer: h.base });
  });

  it("answers CORS preflights and sets CORS headers on metadata, register and token", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", "/register", "/token", "/revoke"]) {
      const preflight = await fetch(`${h.base}${path}`, {
        method: "OPTIONS",
        headers: { origin: "https://inspector.example", "access-control-request-method": "POST" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
      expect(preflight.headers.get("access-control-allow-headers")).toContain("Authorization");
    }
    const registered = await h.register();
    expect(registered.headers.get("access-control-allow-origin")).toBe("*");
    const refused = await h.token({ grant_type: "password", client_id: registered.json.client_id });
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("registers a public client: no secret, metadata echoed", async () => {
    const { status, json } = await h.register({ client_name: "Claude" });
    expect(status).toBe(201);
    const info = OAuthClientInformationFullSchema.parse(json);
    expect(info).toMatchObject({
      client_name: "Claude",
      token_endpoint_auth_method: "none",
      redirect_uris: ["http://127.0.0.1:9999/callback"],
    });
    expect(info.client_secret).toBeUndefined();
    expect((await h.storage.oauthClients.get(info.client_id))?.secretHash).toBeNull();
  });

  it("registers a confidential client: secret shown once, stored only as a hash, checked by Basic and post", async () => {
    const { json } = await h.register({ token_endpoint_auth_method: "client_secret_basic" });
    expect(json.client_secret).toMatch(/^vtr_ocs_/);
    const stored = await h.storage.oauthClients.get(json.client_id);
    expect(stored?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(json.client_secret);

    const basic = (secret: string) =>
      `Basic ${btoa(`${encodeURIComponent(json.client_id)}:${encodeURIComponent(secret)}`)}`;
    const { code, verifier } = await h.obtainCode(json.client_id);
    const form = {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: "http://127.0.0.1:9999/callback",
    };
    const wrong = await h.token(form, { authorization: basic("vtr_ocs_wrong") });
    expect(wrong).toMatchObject({ status: 401, json: { error: "invalid_client" } });
    expect(wrong.headers.get("www-authenticate")).toContain("Basic");
    const second = await h.obtainCode(json.client_id);
    const ok = await h.token(
      { ...form, code: second.code, code_verifier: second.verifier },
      { authorization: basic(json.client_secret) },
    );
    expect(ok.status).toBe(200);
    const viaPost = await h.token({
      grant_type: "refresh_token",
      refresh_token: ok.json.refresh_token,
      client_id: json.client_id,
      client_secret: json.client_secret,
    });
    expect(viaPost.status).toBe(200);
    const noSecret = await h.token({
      grant_type: "refresh_token",
      refresh_token: viaPost.json.refresh_token,
      client_id: json.client_id,
    });
    expect(noSecret.json.error).toBe("invalid_client");
  });

  it("refuses bad registrations with RFC 7591 error bodies", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ redirect_uris: ["http://app.example.com/cb"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://app.example.com/cb#frag"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["not a url"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{ token_endpoint_auth_method: "private_key_jwt" }, "invalid_client_metadata"],
      [{ grant_types: ["client_credentials"] }, "invalid_client_metadata"],
      [{ scope: "catalog:read admin:all" }, "invalid_client_metadata"],
    ];
    for (const [metadata, error] of cases) {
      const { status, json } = await h.register(metadata);
      expect({ metadata, status, error: json.error }).toEqual({ metadata, status: 400, error });
      expect(json.error_description).toBeTypeOf("string");
    }
    const loopback = await h.register({
      redirect_uris: ["http://localhost:1234/cb", "http://[::1]:1234/cb", "https://app.example.com/cb"],
    });
    expect(loopback.status).toBe(201);
  });

  it("revokes (RFC 7009): a refresh token's whole grant, an access token's grant; unknown tokens get 200 too", async () => {
    const clientId = (await h.register()).json.client_id;
    const revoke = (token: string, id = clientId) =>
      fetch(`${h.base}/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token, client_id: id }),
      });
    const byRefresh = await h.obtainTokens(clientId);
    expect((await revoke(byRefresh.refresh_token)).status).toBe(200);
    expect((await h.callMcp(byRefresh.access_token)).status).toBe(401);
    const byAccess = await h.obtainTokens(clientId);
    // Another client cannot revoke someone else's grant.
    const intruder = (await h.register()).json.client_id;
    expect((await revoke(byAccess.access_token, intruder)).status).toBe(200);
    expect((await h.callMcp(byAccess.access_token)).status).toBe(200);
    expect((await revoke(byAccess.access_token)).status).toBe(200);
    expect((await h.callMcp(byAccess.access_token)).status).toBe(401);
    expect(
      (await h.token({ grant_type: "refresh_token", client_id: clientId, refresh_token: byAccess.refresh_token })).json
        .error,
    ).toBe("invalid_grant");
    expect((await revoke("no-such-token")).status).toBe(200);
  });

  it("shares the MCP seam with API keys, and keeps OAuth tokens off the webhook API", async () => {
    const { secret } = await h.vitrina.apiKeys.issue({ userId: OWNER }, h.workspace.id, {
      name: "CI",
      scopes: ["catalog:read", "webhooks:read"],
    });
    expect((await h.callMcp(secret)).status).toBe(200);
    expect(await h.principalOf(secret)).toMatchObject({ kind: "api_key", workspaceId: h.workspace.id });
    const clientId = (await h.register()).json.client_id;
    const tokens = await h.obtainTokens(clientId);
    expect((await h.callMcp(tokens.access_token)).status).toBe(200);
    expect(await h.principalOf(tokens.access_token)).toMatchObject({
      kind: "oauth",
      workspaceId: h.workspace.id,
      subject: OWNER,
      clientId,
    });
    const webhooks = (token: string) =>
      fetch(`${h.base}/v1/webhooks`, { headers: { authorization: `Bearer ${token}` } });
    expect((await webhooks(secret)).status).toBe(200);
    expect((await webhooks(tokens.access_token)).status).toBe(401);
  });

  it("rejects an access token after it expires (manual clock)", async () => {
    const clientId = (await h.register()).json.client_id;
    const tokens = await h.obtainTokens(clientId);
    expect((await h.callMcp(tokens.access_token)).status).toBe(200);
    h.clock.advance(3601_000);
    expect((await h.callMcp(tokens.access_token)).status).toBe(401);
  });
});
