// Builds the demo: a Vitrina over the chosen storage, with one workspace, its owner, a connector
// and a messaging transport that logs instead of sending. Used by main.mjs and by the tests.
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { consoleLogger, createVitrina, logMessagingTransport, whatsAppCloudTransport } from "@vitrina/core";
import { memoryStorage } from "@vitrina/adapter-memory";
import { nodeHostResolver } from "@vitrina/http-node";

export const DEMO_OWNER = "demo-owner";
/** This phone is always opted out in the demo, to show a blocked first message. */
export const DEMO_OPTED_OUT_PHONE = "+56900000000";

function messagingFromEnv(env, logger) {
  if (env.WHATSAPP_ACCESS_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID) {
    return { transport: whatsAppCloudTransport({ accessToken: env.WHATSAPP_ACCESS_TOKEN, phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID }), name: "WhatsApp Cloud API" };
  }
  return { transport: logMessagingTransport(logger), name: "demo (logs, sends nothing)" };
}

export async function createDemo({ env = process.env, logger = consoleLogger, storage } = {}) {
  const secretKey = env.VITRINA_SECRET_KEY ?? randomBytes(32).toString("base64");
  const messaging = messagingFromEnv(env, logger);
  const vitrina = createVitrina({
    storage: storage ?? memoryStorage(),
    messaging: messaging.transport,
    secretBox: secretKey,
    logger,
    // Demo mode: webhook receivers on this machine (http://127.0.0.1:8788) are allowed; every
    // other private address is still refused, and DNS names are checked after resolution.
    webhooks: { allowInsecureLoopback: env.VITRINA_DEMO_ALLOW_LOOPBACK !== "false", resolveHost: nodeHostResolver },
  });
  const workspace = await vitrina.workspaces.create({ name: "Demo Inmobiliaria", ownerUserId: DEMO_OWNER });
  const { connector, secret } = await vitrina.connectors.create({ userId: DEMO_OWNER }, workspace.id, {
    name: "Demo CRM",
    systemId: "demo-crm",
  });
  const { secret: apiKey } = await vitrina.apiKeys.issue({ userId: DEMO_OWNER }, workspace.id, {
    name: "Demo API key",
    scopes: ["webhooks:read", "webhooks:write"],
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
    apiKey: demo.apiKey,
    webhooksUrl: `${baseUrl}/v1/webhooks`,
  };
}

export async function writeDemoCredentials(path, credentials) {
  await writeFile(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}
