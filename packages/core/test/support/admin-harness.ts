import { signLead } from "@vitrina/client";
import { memoryStorage } from "@vitrina/adapter-memory";
import {
  createVitrina,
  silentLogger,
  type Authenticator,
  type ConsoleSurface,
  type Logger,
  type Storage,
} from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import { openHandler, type Listen } from "./handler-server.js";
import { TEST_SECRET_BOX_KEY } from "./lead-harness.js";

/**
 * The admin API, in process (or over the server `listen` starts): one workspace owned by `owner-1`, an
 * `admin:read admin:write` key, console sessions faked as `Authorization: Bearer console:<userId>`
 * and OAuth access tokens as `Bearer oauth:<userId>:<scope,…>` (the admin routes only see a principal).
 */
export async function startAdminHarness(
  options: {
    storage?: Storage;
    logger?: Logger;
    console?: (workspaceId: () => string) => ConsoleSurface;
    listen?: Listen;
    /** Users added to the workspace as members (the owner is `owner-1`). */
    members?: string[];
  } = {},
) {
  const storage = options.storage ?? memoryStorage();
  const clock = createManualClock(Date.now());
  let workspaceId = "";
  const consoleSessions: Authenticator = async (request) => {
    const match = /^Bearer console:(.+)$/.exec(request.headers.get("authorization") ?? "");
    if (match === null) return null;
    return { kind: "console", workspaceId, keyId: `session-${match[1]}`, subject: match[1]!, scopes: [] };
  };
  // An OAuth access token as the verifier would hand it on: `Bearer oauth:<userId>:<scope,scope>`.
  const oauthTokens: Authenticator = async (request) => {
    const match = /^Bearer oauth:([^:]+):(.*)$/.exec(request.headers.get("authorization") ?? "");
    if (match === null) return null;
    const [, subject, scopes] = match;
    return {
      kind: "oauth",
      workspaceId,
      keyId: `grant-${subject}`,
      subject,
      clientId: "client-1",
      scopes: scopes!.split(","),
    };
  };
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: TEST_SECRET_BOX_KEY,
    clock,
    logger: options.logger ?? silentLogger,
    authenticators: [consoleSessions, oauthTokens],
    ...(options.console && { console: options.console(() => workspaceId) }),
  });
  const workspace = await vitrina.workspaces.create({ name: "Inmobiliaria Andes", ownerUserId: "owner-1" });
  workspaceId = workspace.id;
  for (const userId of options.members ?? [])
    await vitrina.workspaces.setMember({ userId: "owner-1" }, { workspaceId, userId, role: "member" });
  const adminKey = (
    await vitrina.apiKeys.issue({ userId: "owner-1" }, workspace.id, {
      name: "admin",
      scopes: ["admin:read", "admin:write"],
    })
  ).secret;
  const server = await openHandler(vitrina.handler, options.listen);

  /** A JSON request as `as` (an API key, or `console:<userId>`). */
  async function call(method: string, path: string, as: string, body?: unknown) {
    // Each write a millisecond later, so listings in creation order are deterministic.
    if (method !== "GET") clock.advance(1);
    const response = await server.fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${as}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text === "" ? null : (JSON.parse(text) as any), headers: response.headers };
  }

  /** Posts a lead signed with `secret` for `connectorId` to `intakeUrl`, as a CRM would. */
  async function sendLead(intakeUrl: string, connectorId: string, secret: string, lead: unknown) {
    const body = JSON.stringify(lead);
    const { headers } = signLead({ connectorId, secret, body, timestamp: clock.now().getTime() });
    const response = await server.fetch(intakeUrl, { method: "POST", headers, body });
    return { status: response.status, json: (await response.json()) as any };
  }

  return {
    vitrina,
    storage,
    clock,
    workspace,
    adminKey,
    url: server.url,
    /** `fetch` to the handler: in process, or over the socket. */
    fetch: server.fetch,
    call,
    sendLead,
    async close() {
      await server.close();
      await storage.close();
    },
  };
}
export type AdminHarness = Awaited<ReturnType<typeof startAdminHarness>>;
