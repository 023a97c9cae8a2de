// Portable entry (browsers, edge, Deno, Bun): @noble/hashes, no `node:` imports.
import { createClient } from "./client.js";
import { nobleHmac } from "./hmac-noble.js";

export * from "./public.js";
export const { signLead, sendLead, signWebhook, verifyWebhook, createWebhookReceiver } = createClient(nobleHmac);
