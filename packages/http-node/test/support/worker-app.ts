import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { storageFromEnv } from "../../src/config/storage-from-env.js";
import { RECEIVER_SECRET } from "./webhook-harness.js";

/** The app's secret key, which its vitrina.config.mjs hands the CLI too. */
export const APP_SECRET_KEY = Buffer.alloc(32, 5).toString("base64");

/**
 * What an app with headerPrefix "Acme" does before `vitrina worker` runs: a subscription to `url`
 * and one quote.created waiting for it, in the storage `env` names (in `schema`).
 */
export async function appQueuesOneEvent(
  env: Record<string, string>,
  schema: string | undefined,
  url: string,
): Promise<void> {
  const configured = await storageFromEnv({ env, schema });
  const vitrina = createVitrina({
    storage: configured.storage,
    messaging: logMessagingTransport(silentLogger),
    secretBox: APP_SECRET_KEY,
    headerPrefix: "Acme",
    webhooks: { allowInsecureLoopback: true },
  });
  try {
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "ana" });
    await vitrina.webhooks.create(workspace.id, { url, events: ["quote.created"], secret: RECEIVER_SECRET });
    const contact = await vitrina.contacts.optOutOfWhatsApp({ workspaceId: workspace.id, phoneE164: "+56911112222" });
    await vitrina.quotes.create({
      workspaceId: workspace.id,
      contactId: contact.id,
      items: [{ sku: "SKU-1", quantity: 1, unitPrice: 990 }],
    });
  } finally {
    await vitrina.close();
  }
}
