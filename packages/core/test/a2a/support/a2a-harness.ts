import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { Role } from "@a2a-js/sdk";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport, seedDemoData } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import { serve } from "@vitrina/http-node";

export const ALL_SCOPES = ["catalog:read", "customers:read", "customers:write", "conversations:read", "inventory:read"];

/** A Vitrina on the memory adapter with the demo catalog, served on 127.0.0.1:0, and an API key. */
export async function startA2aServer(over: Partial<VitrinaOptions> = {}) {
  const clock = createManualClock(Date.parse("2026-11-01T12:00:00Z"));
  const storage = memoryStorage();
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 7).toString("base64"),
    clock,
    logger: silentLogger,
    ...over,
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  await seedDemoData(vitrina, workspace.id);
  const issue = async (scopes: string[]) =>
    (await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, { name: "agent", scopes })).secret;
  const apiKey = await issue(ALL_SCOPES);
  const server = await serve(vitrina.handler, { port: 0, handleSignals: false });
  const contact = (await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56922223333" }))!;

  /** One HTTP call; the JSON body parsed (null when empty). */
  async function call(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; key?: string | null } = {},
  ) {
    const key = options.key === undefined ? apiKey : options.key;
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(key !== null && { authorization: `Bearer ${key}` }),
        ...(options.body !== undefined && { "content-type": "application/json" }),
        ...options.headers,
      },
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === "string"
            ? options.body
            : JSON.stringify(options.body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: text === "" ? null : (JSON.parse(text) as any),
    };
  }

  /** A raw A2A JSON-RPC call, as any v1.0 client sends it. */
  const rpc = (
    method: string,
    params: unknown,
    options: { key?: string | null; headers?: Record<string, string> } = {},
  ) =>
    call("POST", "/a2a", {
      body: { jsonrpc: "2.0", id: 7, method, params },
      ...(options.key !== undefined && { key: options.key }),
      headers: { "a2a-version": "1.0", ...options.headers },
    });

  return { vitrina, storage, clock, workspace, contact, server, apiKey, issue, call, rpc, close: () => server.close() };
}
export type A2aServer = Awaited<ReturnType<typeof startA2aServer>>;

/** The official client, built from the agent card it resolves at the server's well-known path. */
export async function officialClient(baseUrl: string): Promise<Client> {
  return new ClientFactory().createFromUrl(baseUrl);
}

/** `SendMessage`'s request in the SDK's own types: one JSON data part `{ capability, input }`. */
export function capabilityMessage(capability: string, input: unknown, idempotencyKey?: string) {
  return {
    message: {
      messageId: crypto.randomUUID(),
      contextId: "",
      taskId: "",
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: "data" as const, value: { capability, input } },
          metadata: undefined,
          filename: "",
          mediaType: "application/json",
        },
      ],
      metadata: idempotencyKey === undefined ? undefined : { idempotencyKey },
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
    tenant: "",
  };
}

/** The bearer header the SDK client sends, as a per-call service parameter. */
export const bearer = (token: string) => ({ serviceParameters: { authorization: `Bearer ${token}` } });
