// Builds the demo: a Vitrina over the configured storage, with one workspace, its owner, a
// connector and a messaging transport that logs instead of sending. Used by main.mjs and tests.
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { consoleLogger, createVitrina, logMessagingTransport, seedDemoData, staticTokenAuthenticator, whatsAppCloudTransport } from "@vitrina/core";
import { secretKeyFromEnv, storageFromEnv } from "@vitrina/http-node";

export const DEMO_OWNER = "demo-owner";
/** Fixed, so a restart on persistent storage finds the same demo workspace. */
export const DEMO_WORKSPACE_ID = "00000000-0000-4000-8000-0000000000d1";
/** This phone is always opted out in the demo, to show a blocked first message. */
export const DEMO_OPTED_OUT_PHONE = "+56900000000";

function messagingFromEnv(env, logger) {
  if (env.WHATSAPP_ACCESS_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID) {
    return { transport: whatsAppCloudTransport({ accessToken: env.WHATSAPP_ACCESS_TOKEN, phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID }), name: "WhatsApp Cloud API" };
  }
  return { transport: logMessagingTransport(logger), name: "demo (logs, sends nothing)" };
}

/**
 * Creates the demo workspace and connector on first start. On a later start over persistent
 * storage the secret can't be shown again (only its sealed form is stored), so the demo rotates
 * it and prints the new one: the documented way to get a usable secret after a restart.
 */
async function ensureDemoConnector(vitrina) {
  const actor = { userId: DEMO_OWNER };
  let workspace = await vitrina.storage.workspaces.get(DEMO_WORKSPACE_ID);
  if (workspace === null) {
    workspace = await vitrina.workspaces.create({ id: DEMO_WORKSPACE_ID, name: "Demo Inmobiliaria", ownerUserId: DEMO_OWNER });
    // A small real-estate catalog, contacts and conversations, so every capability answers something.
    await seedDemoData(vitrina, workspace.id);
  }
  const existing = (await vitrina.connectors.list(actor, workspace.id)).find((c) => c.systemId === "demo-crm");
  if (existing) {
    const { connector, secret } = await vitrina.connectors.rotate(actor, existing.id);
    return { workspace, connector, secret, rotated: true };
  }
  const { connector, secret } = await vitrina.connectors.create(actor, workspace.id, { name: "Demo CRM", systemId: "demo-crm" });
  return { workspace, connector, secret, rotated: false };
}

/** Every scope the MCP tools use; the demo API key holds them all. */
export const DEMO_API_KEY_SCOPES = ["catalog:read", "customers:read", "customers:write", "conversations:read", "conversations:write", "inventory:read", "quotes:write"];

export async function createDemo({ env = process.env, logger = consoleLogger, memory = false } = {}) {
  const configured = await storageFromEnv({ memory, env });
  const secretKey = configured.persistent ? await secretKeyFromEnv(configured.dataDir, env) : (env.VITRINA_SECRET_KEY ?? randomBytes(32).toString("base64"));
  const messaging = messagingFromEnv(env, logger);
  // The MCP server's demo API key. Interim: becomes a stored, hashed key of the API-key service
  // once it is merged; the bearer seam (`mcp.authenticate`) stays the same.
  const apiKey = env.VITRINA_DEMO_API_KEY ?? `vk_demo_${randomBytes(24).toString("base64url")}`;
  const vitrina = createVitrina({
    storage: configured.storage,
    messaging: messaging.transport,
    secretBox: secretKey,
    logger,
    mcp: { authenticate: staticTokenAuthenticator({ [apiKey]: { workspaceId: DEMO_WORKSPACE_ID, keyId: "demo-key", scopes: DEMO_API_KEY_SCOPES } }) },
  });
  const { workspace, connector, secret, rotated } = await ensureDemoConnector(vitrina);
  const optOuts = [DEMO_OPTED_OUT_PHONE, ...(env.VITRINA_DEMO_OPT_OUT_PHONES ?? "").split(",").map((p) => p.trim()).filter(Boolean)];
  for (const phoneE164 of optOuts) await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164 });
  return { vitrina, workspace, connector, connectorSecret: secret, secretRotated: rotated, apiKey, optOuts, messagingName: messaging.name, storageName: configured.description };
}

/** The credentials scripts need, written to VITRINA_DEMO_CREDENTIALS when set. */
export function demoCredentials(demo, baseUrl) {
  return {
    workspaceId: demo.workspace.id,
    connectorId: demo.connector.id,
    connectorSecret: demo.connectorSecret,
    leadIntakeUrl: `${baseUrl}/functions/v1/lead-intake`,
    mcpUrl: `${baseUrl}/mcp`,
    apiKey: demo.apiKey,
  };
}

export async function writeDemoCredentials(path, credentials) {
  await writeFile(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}
