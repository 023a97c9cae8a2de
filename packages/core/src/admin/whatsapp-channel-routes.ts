import { API_BODY_LIMIT } from "../http/body-limits.js";
import { jsonResponse } from "../http/json.js";
import type { JsonSchema } from "../http/route-doc.js";
import { ADMIN_BODY_ERRORS, adminOperation } from "./admin-operation.js";
import { whatsAppChannelViewSchema } from "./admin-view-schemas.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import type { WhatsAppChannelAdmin } from "./whatsapp-channel-admin.js";

const text = { type: "string" };
const keywords = { anyOf: [{ type: "array", items: text }, { type: "null" }], description: "null for the defaults." };
/** The PUT body, snake_case as sent (the channel service judges each field's format and names it when refused). */
const CHANNEL_BODY: JsonSchema = {
  type: "object",
  required: ["phone_number_id"],
  additionalProperties: false,
  properties: {
    phone_number_id: text,
    access_token: { anyOf: [text, { type: "null" }], description: "null: send through the messaging transport." },
    app_secret: text,
    verify_token: { ...text, description: "Generated when absent at creation, and shown once." },
    graph_base_url: { ...text, format: "uri" },
    api_version: text,
    opt_out_keywords: keywords,
    opt_in_keywords: keywords,
  },
};

/** The channel and its webhook URL; after a PUT also the verify token when Vitrina generated it. */
const channelAnswer = (put: boolean): JsonSchema => ({
  type: "object",
  required: ["channel", "webhook_url"],
  properties: {
    channel: whatsAppChannelViewSchema,
    webhook_url: { type: "string", format: "uri" },
    ...(put && { verify_token: { type: "string", description: "Only when Vitrina generated it: shown this once." } }),
  },
});

/**
 * `/v1/whatsapp-channel`: the workspace's one channel, read, set (create or change) and removed.
 * `webhookUrl` is where the provider's dashboard must point (origin + mount + webhook path).
 */
export function whatsappChannelRoutes(options: {
  whatsappChannel: WhatsAppChannelAdmin;
  guard: (route: string, handler: AdminHandler) => Route["handler"];
  webhookUrl: (request: Request) => string;
}): Route[] {
  const { whatsappChannel, guard, webhookUrl } = options;
  return [
    {
      method: "GET",
      path: "/v1/whatsapp-channel",
      openapi: adminOperation("read", {
        operationId: "whatsapp_channel_get",
        summary: "The workspace's WhatsApp channel and the webhook URL the provider's dashboard must call.",
        responses: { "200": { description: "The channel.", schema: channelAnswer(false) } },
        errors: [404],
      }),
      handler: guard("whatsapp_channel.get", async (caller, request) =>
        jsonResponse({ channel: await whatsappChannel.get(caller), webhook_url: webhookUrl(request) }),
      ),
    },
    {
      method: "PUT",
      path: "/v1/whatsapp-channel",
      openapi: adminOperation("write", {
        operationId: "whatsapp_channel_put",
        summary: "Sets up or changes the channel; a verify token Vitrina generated is shown in this answer only.",
        requestBody: { schema: CHANNEL_BODY },
        responses: {
          "200": { description: "Changed.", schema: channelAnswer(true) },
          "201": { description: "Created.", schema: channelAnswer(true) },
        },
        errors: [409, ...ADMIN_BODY_ERRORS],
      }),
      handler: guard("whatsapp_channel.put", async (caller, request) => {
        const body = await readJsonBody(request, { maxBytes: API_BODY_LIMIT });
        const { channel, verifyToken, created } = await whatsappChannel.put(caller, body);
        return jsonResponse(
          {
            channel,
            // Only when Vitrina generated it: this answer is the one place it is ever shown.
            ...(verifyToken !== null && { verify_token: verifyToken }),
            webhook_url: webhookUrl(request),
          },
          created ? 201 : 200,
          { "cache-control": "no-store" },
        );
      }),
    },
    {
      method: "DELETE",
      path: "/v1/whatsapp-channel",
      openapi: adminOperation("write", {
        operationId: "whatsapp_channel_remove",
        summary: "Removes the channel: its number sends through the messaging transport given in code again.",
        responses: { "204": { description: "Removed." } },
        errors: [404],
      }),
      handler: guard("whatsapp_channel.remove", async (caller, request) => {
        await request.body?.cancel().catch(() => {});
        await whatsappChannel.remove(caller);
        return new Response(null, { status: 204 });
      }),
    },
  ];
}
