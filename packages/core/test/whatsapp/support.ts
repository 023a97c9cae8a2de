import { memoryStorage } from "@vitrina/adapter-memory";
import { signLead } from "@vitrina/client";
import {
  createVitrina,
  type LogFields,
  type Logger,
  type MessagingTransport,
  type Storage,
  type VitrinaOptions,
} from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { whatsAppProvider } from "@vitrina/core/testing";

/** Everything logged, as `{ level, fields, message }`, to assert what operators see. */
export function recordingLogger() {
  const lines: Array<{ level: string; fields: LogFields; message: string }> = [];
  const at =
    (level: string) =>
    (fields: unknown, message?: string): void =>
      void lines.push(
        typeof fields === "string"
          ? { level, fields: {}, message: fields }
          : { level, fields: fields as LogFields, message: message ?? "" },
      );
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  return { logger, lines };
}

export const APP_SECRET = "test-app-secret-0123456789";
export const VERIFY_TOKEN = "test-verify-token-0123456789";
export const BASE = "http://vitrina.test";
export const WEBHOOK_URL = `${BASE}/functions/v1/whatsapp-webhook`;

/**
 * A Vitrina (in process, `handler` called directly) whose workspace has a receive-only WhatsApp
 * channel (sends go through the demo's log transport), a connector to send leads with, and the
 * provider's side to post signed webhooks.
 */
export async function whatsAppHarness(
  options: {
    storage?: Storage;
    phoneNumberId?: string;
    basePath?: string;
    messaging?: MessagingTransport;
    leadIntake?: VitrinaOptions["leadIntake"];
  } = {},
) {
  const storage = options.storage ?? memoryStorage();
  const { logger, lines } = recordingLogger();
  const messaging = logMessagingTransport(logger);
  const vitrina = createVitrina({
    storage,
    messaging: options.messaging ?? messaging,
    secretBox: Buffer.alloc(32, 3).toString("base64"),
    logger,
    ...(options.basePath !== undefined && { basePath: options.basePath }),
    ...(options.leadIntake !== undefined && { leadIntake: options.leadIntake }),
  });
  const webhookUrl = `${BASE}${vitrina.whatsapp.webhookPath}`;
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  const phoneNumberId = options.phoneNumberId ?? `10${Math.floor(Math.random() * 1e12)}`;
  await vitrina.whatsapp.channels.put({
    workspaceId: workspace.id,
    phoneNumberId,
    appSecret: APP_SECRET,
    verifyToken: VERIFY_TOKEN,
  });
  const { connector, secret } = await vitrina.connectors.create(
    { userId: "owner" },
    { workspaceId: workspace.id, name: "CRM", systemId: "crm" },
  );
  const meta = whatsAppProvider({ phoneNumberId, appSecret: APP_SECRET });
  let leads = 0;

  return {
    vitrina,
    storage: vitrina.storage,
    workspace,
    phoneNumberId,
    meta,
    messaging,
    webhookUrl,
    logs: lines,
    /** Posts a signed batch; answers the status and the JSON body. */
    async post(body: Record<string, unknown> | string, headers: Record<string, string> = {}) {
      const response = await vitrina.handler(await meta.request(webhookUrl, body, headers));
      const text = await response.text();
      return { status: response.status, json: text.startsWith("{") ? JSON.parse(text) : text };
    },
    /** Posts a lead with consent for `phone` (E.164) and answers the intake response. */
    async lead(phone: string, over: Record<string, unknown> = {}) {
      const body = JSON.stringify({
        event: "lead.created",
        source_lead_id: `crm-${++leads}-${Math.random()}`,
        contact: { phone_e164: phone, name: "María" },
        whatsapp_consent: { granted: true, timestamp: new Date(Date.now() - 60_000).toISOString(), source: "form" },
        ...over,
      });
      const { headers } = signLead({ connectorId: connector.id, secret, body, timestamp: Date.now() });
      const response = await vitrina.handler(
        new Request(`${BASE}${vitrina.basePath}/functions/v1/lead-intake`, { method: "POST", headers, body }),
      );
      return (await response.json()) as any;
    },
    async contactByPhone(phone: string) {
      return storage.contacts.findByPhone(workspace.id, phone);
    },
    async thread(contactId: string) {
      const conversation = await storage.conversations.findActive(workspace.id, contactId, "whatsapp");
      return conversation === null ? [] : (await storage.messages.listByConversation(conversation.id)).reverse();
    },
  };
}
export type WhatsAppHarness = Awaited<ReturnType<typeof whatsAppHarness>>;
