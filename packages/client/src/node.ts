// Node entry (picked by the "node" export condition): same API, native node:crypto HMAC.
import { createClient } from "./client.js";
import { nodeHmac } from "./hmac-node.js";

export * from "./public.js";
export const { signLead, sendLead, signWebhook, verifyWebhook, createWebhookReceiver } = createClient(nodeHmac);
