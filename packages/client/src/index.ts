// Portable entry (browsers, edge, Deno, Bun): @noble/hashes, no `node:` imports.
import { createSignLead } from "./lead-signing.js";
import { createSendLead } from "./send-lead.js";
import { createCreateWebhookReceiver } from "./webhook-receiver.js";
import { createSignWebhook, createVerifyWebhook } from "./webhook-signature.js";
import { nobleHmac } from "./hmac-noble.js";

export * from "./public.js";
// One pure call per function (not one object destructured), so bundlers drop the unused ones.
export const signLead = /* @__PURE__ */ createSignLead(nobleHmac);
export const sendLead = /* @__PURE__ */ createSendLead(signLead);
export const signWebhook = /* @__PURE__ */ createSignWebhook(nobleHmac);
export const verifyWebhook = /* @__PURE__ */ createVerifyWebhook(nobleHmac);
export const createWebhookReceiver = /* @__PURE__ */ createCreateWebhookReceiver(verifyWebhook);
