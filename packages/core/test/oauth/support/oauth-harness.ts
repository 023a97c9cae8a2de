import { memoryStorage } from "@vitrina/adapter-memory";
import {
  createVitrina,
  silentLogger,
  type AuthorizeHook,
  type A2aOptions,
  type OAuthOptions,
  type RestOptions,
  type Storage,
} from "@vitrina/core";
import { s256Challenge } from "@vitrina/core/oauth";
import { logMessagingTransport } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import { serve } from "@vitrina/http-node";

export const OWNER = "owner-1";
const SECRET_BOX_KEY = Buffer.alloc(32, 7).toString("base64");

/**
 * A real server on 127.0.0.1:0 (`vitrina.handler`: OAuth routes and the MCP server at `/mcp`), with
 * one workspace whose owner the consent hook approves.
 */
export async function startOAuthHarness(
  over: {
    authorize?: AuthorizeHook;
    oauth?: Partial<OAuthOptions>;
    storage?: Storage;
    rest?: RestOptions;
    a2a?: A2aOptions;
  } = {},
) {
  const storage = over.storage ?? memoryStorage();
  const clock = createManualClock(Date.now());
  let workspaceId = "";
  const autoApprove: AuthorizeHook = async (_request, { scopes }) => ({
    userId: OWNER,
    workspaceId,
    grantedScopes: scopes,
  });
  // Suites register many clients on one server: no registration rate limit unless a test sets one.
  const oauth: OAuthOptions = {
    authorize: over.authorize ?? autoApprove,
    registration: { rateLimit: false },
    ...over.oauth,
  };
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: SECRET_BOX_KEY,
    clock,
    oauth,
    ...(over.rest !== undefined && { rest: over.rest }),
    ...(over.a2a !== undefined && { a2a: over.a2a }),
  });
  const workspace = await vitrina.workspaces.create({ name: "Inmobiliaria Andes", ownerUserId: OWNER });
  workspaceId = workspace.id;
  const server = await serve(vitrina.handler, { port: 0, handleSignals: false });
  const base = server.url;
  const mcpUrl = `${base}/mcp`;

  async function register(metadata: Record<string, unknown> = {}) {
    const response = await fetch(`${base}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Test client",
        redirect_uris: ["http://127.0.0.1:9999/callback"],
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "none",
        ...metadata,
      }),
    });
    return { status: response.status, json: (await response.json()) as any, headers: response.headers };
  }

  /** GET /authorize without following the redirect; `null` in `params` drops a parameter. */
  async function authorize(clientId: string, params: Record<string, string | null> = {}, verifier = newVerifier()) {
    const query = new URLSearchParams();
    const all: Record<string, string | null> = {
      response_type: "code",
      client_id: clientId,
      redirect_uri: "http://127.0.0.1:9999/callback",
      code_challenge: await s256Challenge(verifier),
      code_challenge_method: "S256",
      state: "st-123",
      resource: mcpUrl,
      ...params,
    };
    for (const [key, value] of Object.entries(all)) if (value !== null) query.set(key, value);
    const response = await fetch(`${base}/authorize?${query}`, { redirect: "manual" });
    const location = response.headers.get("location");
    return { response, location: location === null ? null : new URL(location), verifier };
  }

  async function obtainCode(clientId: string, params: Record<string, string | null> = {}) {
    const { location, verifier } = await authorize(clientId, params);
    const code = location?.searchParams.get("code");
    if (!code) throw new Error(`no code in ${location}`);
    return { code, verifier };
  }

  async function token(form: Record<string, string>, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form),
    });
    return { status: response.status, json: (await response.json()) as any, headers: response.headers };
  }

  async function obtainTokens(clientId: string, params: Record<string, string | null> = {}) {
    const { code, verifier } = await obtainCode(clientId, params);
    const result = await token({
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: "http://127.0.0.1:9999/callback",
    });
    if (result.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(result.json)}`);
    return result.json as { access_token: string; refresh_token: string; scope: string; expires_in: number };
  }

  /** A JSON-RPC call to the real `/mcp`; `tools/list` unless told otherwise. */
  const callMcp = (accessToken: string | null, method = "tools/list", params: Record<string, unknown> = {}) =>
    fetch(mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(accessToken === null ? {} : { authorization: `Bearer ${accessToken}` }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });

  /** Who the MCP authenticator (API keys, then OAuth) says the bearer of `token` is. */
  const principalOf = (token: string) =>
    vitrina.authenticateMcp(new Request(mcpUrl, { headers: { authorization: `Bearer ${token}` } }));

  return {
    vitrina,
    storage,
    clock,
    workspace,
    base,
    mcpUrl,
    register,
    authorize,
    obtainCode,
    token,
    obtainTokens,
    callMcp,
    principalOf,
    async close() {
      await server.close();
      await storage.close();
    },
  };
}
export type OAuthHarness = Awaited<ReturnType<typeof startOAuthHarness>>;

/** A random RFC 7636 code verifier (43 characters). */
export function newVerifier(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}
