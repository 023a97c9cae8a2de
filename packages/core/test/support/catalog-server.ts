import { z } from "zod";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, defineCapability, silentLogger, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport, seedDemoData } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import { serve } from "@vitrina/http-node";

/** Every scope the built-in capabilities ask for. */
export const ALL_SCOPES = ["catalog:read", "customers:read", "customers:write", "conversations:read", "inventory:read"];

/** An embedder's query, registered beside the built-in ones in surface tests. */
export const loyaltyPoints = defineCapability({
  name: "loyalty.points",
  version: "1.0.0",
  summary: "Points a contact has.",
  execution: "query",
  riskClass: "read",
  requiredScopes: ["customers:read"],
  scopeMatch: "anyOf",
  input: z.strictObject({ contact_id: z.string().min(1) }),
  output: z.strictObject({ points: z.number() }),
  idempotency: { required: false, strategy: "none" },
  run: async () => ({ output: { points: 42 } }),
});

/**
 * A Vitrina on the memory adapter with the demo catalog, served on a real socket on 127.0.0.1:0,
 * an API key with every scope, and a contact; for the capability surfaces' tests (REST, A2A).
 */
export async function startCatalogServer(over: Partial<VitrinaOptions> = {}, clockStart = Date.now()) {
  const clock = createManualClock(clockStart);
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
    (await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, { name: "ERP", scopes })).secret;
  const apiKey = await issue(ALL_SCOPES);
  const server = await serve(vitrina.handler, { port: 0, handleSignals: false });
  const contact = (await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56922223333" }))!;

  /** One HTTP call with the API key (another `key`, or none with `null`); the JSON body parsed, null when empty. */
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
  const principal = { workspaceId: workspace.id, scopes: ALL_SCOPES, actorId: "test" };
  return {
    vitrina,
    storage,
    clock,
    workspace,
    contact,
    server,
    apiKey,
    call,
    issue,
    principal,
    close: () => server.close(),
  };
}
export type CatalogServer = Awaited<ReturnType<typeof startCatalogServer>>;
