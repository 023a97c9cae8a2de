import type { HmacSha256 } from "./hmac.js";
import { createSignLead } from "./lead-signing.js";
import { createSendLead } from "./send-lead.js";
import { createCreateWebhookReceiver } from "./webhook-receiver.js";
import { createSignWebhook, createVerifyWebhook } from "./webhook-signature.js";

/**
 * Wires every public function to one HMAC implementation. Each entry point calls this once,
 * so the node and portable builds differ only in the `HmacSha256` they pass.
 */
export function createClient(hmac: HmacSha256) {
  const signLead = createSignLead(hmac);
  const verifyWebhook = createVerifyWebhook(hmac);
  return {
    signLead,
    sendLead: createSendLead(signLead),
    signWebhook: createSignWebhook(hmac),
    verifyWebhook,
    createWebhookReceiver: createCreateWebhookReceiver(verifyWebhook),
  };
}
