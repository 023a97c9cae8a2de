import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { memoryStorage } from "@vitrina/adapter-memory";
import { fixtures } from "@vitrina/core/testing";
import { createVitrina, silentLogger, type McpOptions, type Principal, type Storage } from "@vitrina/core";
import { staticTokenAuthenticator } from "@vitrina/core/mcp";
import { logMessagingTransport } from "@vitrina/core/demo";
import { serve } from "@vitrina/http-node";

/** The workspace catalog the capability runtime answers from. */
export const CATALOG = [
  { sku: "DEP-101", name: "Departamento 101, 2D2B", price: 98_000_000, stock: 3 },
  { sku: "DEP-202", name: "Departamento 202, 3D2B", price: 125_000_000, stock: 0 },
  { sku: "EST-01", name: "Estacionamiento", price: 9_500_000, stock: 12 },
];

/** A stored catalog item for a test: `item`'s fields, the rest empty. */
export function catalogItem(
  f: ReturnType<typeof fixtures>,
  workspaceId: string,
  item: { sku: string; name: string; price: number; stock: number },
): Parameters<Storage["catalogItems"]["upsert"]>[0] {
  return {
    id: f.id(),
    workspaceId,
    source: "service_native",
    currency: "CLP",
    availability: item.stock > 0 ? "in_stock" : "out_of_stock",
    description: null,
    location: null,
    delivery: null,
    address: null,
    developer: null,
    amenities: null,
    typologies: null,
    variants: [],
    images: [],
    createdAt: f.at(),
    updatedAt: f.at(),
    ...item,
  };
}

export const ALL_SCOPES = [
  "catalog:read",
  "customers:read",
  "customers:write",
  "conversations:read",
  "conversations:write",
  "inventory:read",
  "quotes:write",
];
export const TOKENS = { full: "vk_test_full", readOnly: "vk_test_read_only", catalogOnly: "vk_test_catalog" } as const;

/**
 * A real Vitrina on 127.0.0.1:0 with one workspace holding a three-product catalog, a contact, a
 * WhatsApp conversation with two messages and a closed web conversation, three API tokens, and an
 * SDK client factory. Every tool answers from this storage through the real capability runtime.
 */
export async function startMcpHarness(
  mcp: Partial<McpOptions> = {},
  options: { storage?: Storage; oauth?: boolean } = {},
) {
  const storage = options.storage ?? memoryStorage();
  const messaging = logMessagingTransport(silentLogger);
  const f = fixtures();
  const workspace = f.workspace();
  const contact = f.contact(workspace.id, {
    name: "María Pérez",
    phoneE164: "+56912345678",
    email: "maria@example.cl",
    tags: ["vip"],
    score: 80,
  });
  const conversation = f.conversation(workspace.id, contact.id, { createdAt: f.at(0), updatedAt: f.at(2000) });
  const closed = { ...conversation, id: f.id(), channel: "web", status: "closed" as const, updatedAt: f.at(1000) };
  await storage.workspaces.insert(workspace);
  await storage.contacts.insertOrGetByPhone(contact);
  // The contact wrote just now: WhatsApp's 24-hour service window is open for send_message.
  await storage.contacts.recordInbound(workspace.id, contact.id, new Date().toISOString());
  await storage.conversations.insert(conversation);
  await storage.conversations.insert(closed);
  await storage.messages.insert({
    id: f.id(),
    workspaceId: workspace.id,
    conversationId: conversation.id,
    sender: "contact",
    content: "Hola, ¿sigue disponible el 101?",
    createdAt: f.at(1000),
  });
  await storage.messages.insert({
    id: f.id(),
    workspaceId: workspace.id,
    conversationId: conversation.id,
    sender: "agent",
    content: "Sí, quedan 3.",
    createdAt: f.at(2000),
  });

  for (const item of CATALOG) await storage.catalogItems.upsert(catalogItem(f, workspace.id, item));

  const principal = (keyId: string, scopes: string[]): Omit<Principal, "kind"> => ({
    workspaceId: workspace.id,
    keyId,
    scopes,
  });
  const vitrina = createVitrina({
    storage,
    messaging,
    secretBox: Buffer.alloc(32, 7).toString("base64"),
    // The authorization server, for tests about its discovery; nobody is ever authorized here.
    ...(options.oauth === true && {
      oauth: { authorize: async () => new Response("no sign-in in tests", { status: 403 }) },
    }),
    mcp: {
      authenticate: staticTokenAuthenticator({
        [TOKENS.full]: principal("key-full", ALL_SCOPES),
        [TOKENS.readOnly]: principal(
          "key-read",
          ALL_SCOPES.filter((s) => !s.endsWith(":write")),
        ),
        [TOKENS.catalogOnly]: principal("key-catalog", ["catalog:read"]),
      }),
      allowedOrigins: ["https://console.example.com"],
      ...mcp,
    },
  });
  const server = await serve(vitrina.handler, { port: 0, handleSignals: false });
  const mcpUrl = `${server.url}/mcp`;

  async function connect(token: string | null = TOKENS.full): Promise<Client> {
    const client = new Client({ name: "vitrina-test", version: "0.0.0" });
    const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers } }));
    return client;
  }

  /** A raw JSON-RPC POST, for what the SDK client would never send. */
  async function post(body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${TOKENS.full}`,
        ...headers,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text === "" ? null : (JSON.parse(text) as any) };
  }

  return {
    vitrina,
    storage,
    messaging,
    workspace,
    contact,
    conversation,
    closed,
    server,
    mcpUrl,
    connect,
    post,
    async close() {
      await server.close();
      await storage.close();
    },
  };
}
export type McpHarness = Awaited<ReturnType<typeof startMcpHarness>>;
