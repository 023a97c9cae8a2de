// Builds the demo: a Vitrina over the chosen storage, with one workspace, its owner, a connector
// and a messaging transport that logs instead of sending. Used by main.mjs and by the tests.
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { bearerToken, consoleLogger, createVitrina, logMessagingTransport, timingSafeEqualStrings, whatsAppCloudTransport } from "@vitrina/core";
import { memoryStorage } from "@vitrina/adapter-memory";

export const DEMO_OWNER = "demo-owner";
/** This phone is always opted out in the demo, to show a blocked first message. */
export const DEMO_OPTED_OUT_PHONE = "+56900000000";

function messagingFromEnv(env, logger) {
  if (env.WHATSAPP_ACCESS_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID) {
    return { transport: whatsAppCloudTransport({ accessToken: env.WHATSAPP_ACCESS_TOKEN, phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID }), name: "WhatsApp Cloud API" };
  }
  return { transport: logMessagingTransport(logger), name: "demo (logs, sends nothing)" };
}

/** Every scope the MCP tools use; the demo key holds them all. */
export const DEMO_API_KEY_SCOPES = ["catalog:read", "customers:read", "customers:write", "conversations:read", "conversations:write", "inventory:read", "quotes:write"];

export async function createDemo({ env = process.env, logger = consoleLogger, storage } = {}) {
  const secretKey = env.VITRINA_SECRET_KEY ?? randomBytes(32).toString("base64");
  const messaging = messagingFromEnv(env, logger);
  // One demo API key for the MCP server. Interim: becomes a stored, hashed key from the API-key
  // service once it is merged; the bearer check is the same seam either way.
  const apiKey = env.VITRINA_DEMO_API_KEY ?? `vk_demo_${randomBytes(24).toString("base64url")}`;
  let principal = null;
  const vitrina = createVitrina({
    storage: storage ?? memoryStorage(),
    messaging: messaging.transport,
    secretBox: secretKey,
    logger,
    mcp: {
      authenticate: async (request) => {
        const token = bearerToken(request);
        return token !== null && principal !== null && timingSafeEqualStrings(token, apiKey) ? principal : null;
      },
    },
  });
  const workspace = await vitrina.workspaces.create({ name: "Demo Inmobiliaria", ownerUserId: DEMO_OWNER });
  principal = { workspaceId: workspace.id, keyId: "demo-key", scopes: DEMO_API_KEY_SCOPES };
  const { connector, secret } = await vitrina.connectors.create({ userId: DEMO_OWNER }, workspace.id, {
    name: "Demo CRM",
    systemId: "demo-crm",
  });
  const optOuts = [DEMO_OPTED_OUT_PHONE, ...(env.VITRINA_DEMO_OPT_OUT_PHONES ?? "").split(",").map((p) => p.trim()).filter(Boolean)];
  for (const phoneE164 of optOuts) await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164 });
  return { vitrina, workspace, connector, connectorSecret: secret, apiKey, optOuts, messagingName: messaging.name, storageName: "memory" };
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
