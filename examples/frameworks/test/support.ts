import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { signLead } from "@vitrina/client";
import { silentLogger, type Logger } from "@vitrina/core";
import { expect } from "vitest";
// @ts-expect-error: a plain .mjs example, typed loosely on purpose.
import { createDemoVitrina as createDemo } from "../demo-vitrina.mjs";

type Demo = {
  vitrina: any;
  workspace: { id: string };
  connector: { id: string };
  connectorSecret: string;
  apiKey: string;
};
export const createDemoVitrina = createDemo as (options?: Record<string, unknown>) => Promise<Demo>;

export function quietDemo(options: { basePath?: string; logger?: Logger; [key: string]: unknown } = {}) {
  return createDemoVitrina({ logger: silentLogger, ...options });
}

/** A node:http server on 127.0.0.1 with a free port. */
export async function listen(listener: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A lead signed over its exact bytes, with odd spacing and key order a re-serialising parser would change. */
export function signedLead(demo: Demo) {
  const body = `{ "event":"lead.created",  "source_lead_id":"crm-${Math.random().toString(36).slice(2)}", "contact":{"phone_e164":"+56912345678","name":"María Pérez"},
  "context":{"source":"landing"}, "whatsapp_consent":{"granted":true,"timestamp":"2026-01-31T12:00:00Z","source":"form","purpose":"sales"} }`;
  const { headers } = signLead({
    connectorId: demo.connector.id,
    secret: demo.connectorSecret,
    body,
    timestamp: Date.now(),
  });
  return { body, headers: headers as Record<string, string> };
}

/** POSTs a fresh `signedLead` to lead intake under `base` (the mount's URL). */
export function sendSignedLead(base: string, demo: Demo): Promise<Response> {
  const lead = signedLead(demo);
  return fetch(`${base}/functions/v1/lead-intake`, { method: "POST", headers: lead.headers, body: lead.body });
}

/**
 * What every framework integration must get right, through the framework, over loopback: a
 * signed lead (the signature only verifies if the raw body survived), the catalog with the MCP
 * URL under the mount, and an MCP tools/list.
 */
export async function expectVitrinaServed(base: string, demo: Demo, mcpPath = "/vitrina/mcp") {
  const accepted = await sendSignedLead(base, demo);
  const acceptedBody = (await accepted.json()) as { accepted?: boolean };
  expect(accepted.status, JSON.stringify(acceptedBody)).toBe(200);
  expect(acceptedBody.accepted).toBe(true);

  const catalog = await fetch(`${base}/v1/capabilities`);
  expect(catalog.status).toBe(200);
  expect(((await catalog.json()) as { mcpServer: { url: string } }).mcpServer.url).toBe(mcpPath);

  const mcp = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${demo.apiKey}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const listed = (await mcp.json()) as { result?: { tools: { name: string }[] } };
  expect(mcp.status, JSON.stringify(listed)).toBe(200);
  expect(listed.result?.tools.map((tool) => tool.name)).toContain("query_catalog");
}

/** The demo under /vitrina with OAuth on: the `authorize` hook grants the demo owner what was asked. */
export async function oauthDemo() {
  let workspaceId = "";
  const demo = await quietDemo({
    basePath: "/vitrina",
    oauth: {
      authorize: async (_request: Request, { scopes }: { scopes: string[] }) => ({
        userId: "owner",
        workspaceId,
        grantedScopes: scopes,
      }),
    },
  });
  workspaceId = demo.workspace.id;
  return demo;
}

/**
 * What an MCP client does with the app at `origin` serving `oauthDemo()` under /vitrina: discover
 * OAuth from the 401 (the metadata documents live at the origin root, outside the mount),
 * register, authorize, and list tools with the token.
 */
export async function expectMcpOAuthFlow(origin: string) {
  const mcpUrl = new URL(`${origin}/vitrina/mcp`);
  const saved: {
    client?: OAuthClientInformationMixed;
    tokens?: OAuthTokens;
    verifier: string;
    authorizationUrl?: URL;
  } = { verifier: "" };
  const provider: OAuthClientProvider = {
    redirectUrl: "http://127.0.0.1:9999/callback",
    clientMetadata: {
      client_name: "t",
      redirect_uris: ["http://127.0.0.1:9999/callback"],
      token_endpoint_auth_method: "none",
    },
    clientInformation: () => saved.client,
    saveClientInformation: (info) => void (saved.client = info),
    tokens: () => saved.tokens,
    saveTokens: (tokens) => void (saved.tokens = tokens),
    redirectToAuthorization: (url) => void (saved.authorizationUrl = url),
    saveCodeVerifier: (verifier) => void (saved.verifier = verifier),
    codeVerifier: () => saved.verifier,
  };
  const client = new Client({ name: "t", version: "1.0.0" });
  await expect(
    client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })),
  ).rejects.toBeInstanceOf(UnauthorizedError);
  expect(saved.authorizationUrl?.pathname).toBe("/vitrina/authorize");
  expect(saved.authorizationUrl?.searchParams.get("resource")).toBe(mcpUrl.href);

  const redirect = await fetch(saved.authorizationUrl!, { redirect: "manual" });
  const code = new URL(redirect.headers.get("location")!).searchParams.get("code")!;
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await transport.finishAuth(code);
  await client.connect(transport);
  expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("query_catalog");
  await client.close();
}
