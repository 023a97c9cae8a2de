// Node entry (picked by the "node" export condition): same API, native node:crypto HMAC.
import { createSignLead } from "./lead-signing.js";
import { createSendLead } from "./send-lead.js";
import { createCreateWebhookReceiver } from "./webhook-receiver.js";
import { createSignWebhook, createVerifyWebhook } from "./webhook-signature.js";
import { nodeHmac } from "./hmac-node.js";

export * from "./public.js";
// One pure call per function (not one object destructured), so bundlers drop the unused ones.
export const signLead = /* @__PURE__ */ createSignLead(nodeHmac);
export const sendLead = /* @__PURE__ */ createSendLead(signLead);
export const signWebhook = /* @__PURE__ */ createSignWebhook(nodeHmac);
export const verifyWebhook = /* @__PURE__ */ createVerifyWebhook(nodeHmac);
export const createWebhookReceiver = /* @__PURE__ */ createCreateWebhookReceiver(verifyWebhook);
