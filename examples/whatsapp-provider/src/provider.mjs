// What the WhatsApp Cloud API posts to a webhook, built and signed as Meta does: the envelope
// (`entry[].changes[].value` with `metadata.phone_number_id`), status reports, inbound texts, and
// `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`. Used by the
// tour, the tests and the bench; /work/shared/reference/whatsapp-cloud-webhooks.md has the shapes.
import { createHmac, randomUUID } from "node:crypto";

/** Unix seconds as a string, as the provider writes timestamps. */
const unixSeconds = (date = new Date()) => String(Math.floor(date.getTime() / 1000));

/** The `wa_id` of an E.164 phone: its digits without the `+`. */
export const waIdOf = (phoneE164) => phoneE164.replace(/^\+/, "");

/** A fresh provider message id, shaped like Meta's `wamid.…`. */
export const newWamid = () => `wamid.${randomUUID().replaceAll("-", "")}`;

/** One webhook batch for `phoneNumberId` whose single change carries `value` (statuses, messages, contacts…). */
export function webhookBatch(phoneNumberId, value) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "demo-waba-id",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "56900000001", phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/**
 * A status report: `sent`, `delivered`, `read` or `failed` (with `error: { code, title }`) of the
 * message `id` sent to `phoneE164`.
 */
export function statusReport({ id, status, phoneE164, at = new Date(), error }) {
  return {
    id,
    status,
    timestamp: unixSeconds(at),
    recipient_id: waIdOf(phoneE164),
    ...(error && { errors: [{ code: error.code, title: error.title }] }),
  };
}

/** A batch of status reports (see `statusReport`). */
export const statusBatch = (phoneNumberId, reports) =>
  webhookBatch(phoneNumberId, { statuses: reports.map(statusReport) });

/** A batch with one inbound text from `phoneE164`, with its profile name. */
export function textBatch(phoneNumberId, { phoneE164, text, name = "Camila Rojas", id = newWamid(), at = new Date() }) {
  const from = waIdOf(phoneE164);
  return webhookBatch(phoneNumberId, {
    contacts: [{ profile: { name }, wa_id: from }],
    messages: [{ from, id, timestamp: unixSeconds(at), type: "text", text: { body: text } }],
  });
}

/** The `X-Hub-Signature-256` value for `body` (the exact bytes posted) under the app secret. */
export const hubSignature = (body, appSecret) => `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;

/** Posts `batch` signed with `appSecret`, as Meta does; resolves `{ status, body }` (body parsed when JSON). */
export async function postWebhook(url, appSecret, batch) {
  const body = JSON.stringify(batch);
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(body, appSecret) },
    body,
  });
  const text = await response.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed };
}
