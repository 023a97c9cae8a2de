import { signLead } from "@vitrina/client";
import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, silentLogger, type MessagingTransport, type Storage } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import { openHandler, type Listen } from "./handler-server.js";

export const TEST_SECRET_BOX_KEY = Buffer.alloc(32, 7).toString("base64");

/**
 * A Vitrina with one workspace and connector, over the given storage (memory by default), and
 * helpers to post signed leads to its handler: in process, or over the server `listen` starts.
 */
export async function startLeadHarness(
  options: { messaging?: MessagingTransport; storage?: Storage; listen?: Listen } = {},
) {
  const storage = options.storage ?? memoryStorage();
  const demoTransport = logMessagingTransport(silentLogger);
  const messaging = options.messaging ?? demoTransport;
  const clock = createManualClock(Date.now());
  // Silent: these suites refuse leads on purpose; the logs themselves are tested in core.
  const vitrina = createVitrina({ storage, messaging, secretBox: TEST_SECRET_BOX_KEY, clock, logger: silentLogger });
  const workspace = await vitrina.workspaces.create({ name: "Inmobiliaria Andes", ownerUserId: "owner-1" });
  const { connector, secret } = await vitrina.connectors.create(
    { userId: "owner-1" },
    { workspaceId: workspace.id, name: "HubSpot", systemId: "hubspot-main" },
  );
  const server = await openHandler(vitrina.handler, options.listen);
  const url = `${server.url}/functions/v1/lead-intake`;

  async function post(body: string, headers: Record<string, string>) {
    const response = await server.fetch(url, { method: "POST", headers, body });
    return { status: response.status, json: (await response.json()) as any, headers: response.headers };
  }

  /** Signs like a CRM vendor would, with @vitrina/client. */
  function signedHeaders(body: string, over: { timestamp?: string; secret?: string; connectorId?: string } = {}) {
    return signLead({
      connectorId: over.connectorId ?? connector.id,
      secret: over.secret ?? secret,
      body,
      timestamp: over.timestamp ?? clock.now().getTime(),
    }).headers;
  }

  return {
    vitrina,
    storage,
    clock,
    workspace,
    connector,
    secret,
    url,
    /** `fetch` to the handler: in process, or over the socket. */
    fetch: server.fetch,
    sentMessages: demoTransport.sent,
    signedHeaders,
    post,
    /** Signs and posts a lead object (or a raw string body). */
    send(lead: unknown, over: Parameters<typeof signedHeaders>[1] = {}) {
      const body = typeof lead === "string" ? lead : JSON.stringify(lead);
      return post(body, signedHeaders(body, over));
    },
    async counts() {
      const leads = await storage.leads.countByWorkspace(workspace.id);
      const outbound = await storage.outbound.listByWorkspace(workspace.id);
      return { leads, outbound: outbound.length, sent: outbound.filter((m) => m.status === "sent").length };
    },
    async close() {
      await server.close();
      await storage.close();
    },
  };
}
export type LeadHarness = Awaited<ReturnType<typeof startLeadHarness>>;

let counter = 0;
/** A valid real-estate lead with consent; override any part. */
export function sampleLead(over: Record<string, unknown> = {}) {
  counter++;
  return {
    event: "lead.created",
    source_lead_id: `crm-${Date.now()}-${counter}`,
    contact: {
      phone_e164: `+5691${String(1_000_000 + counter).padStart(7, "0")}`,
      name: "María Pérez",
      email: `maria${counter}@example.cl`,
    },
    context: {
      catalog_item_id: "unit-101",
      source: "landing",
      campaign_id: "spring",
      landing_page: "https://example.cl/u101",
    },
    qualification: { monthly_income: 1_800_000 },
    whatsapp_consent: {
      granted: true,
      timestamp: "2026-01-31T12:00:00Z",
      source: "landing-form",
      purpose: "sales follow-up",
    },
    metadata: { utm_source: "google", trace: { id: "abc" } },
    ...over,
  };
}
