import { jsonResponse } from "../http/json.js";
import { readJsonBody } from "../http/read-json.js";
import type { Route } from "../http/router.js";
import type { AdminHandler } from "./admin-guard.js";
import type { WhatsAppChannelAdmin } from "./whatsapp-channel-admin.js";

/** Room for the longest access token and two full keyword lists; a 10 KB field still gets its 422 naming it. */
const MAX_BODY_BYTES = 32 * 1024;

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
      handler: guard("whatsapp_channel.get", async (caller, request) =>
        jsonResponse({ channel: await whatsappChannel.get(caller), webhook_url: webhookUrl(request) }),
      ),
    },
    {
      method: "PUT",
      path: "/v1/whatsapp-channel",
      handler: guard("whatsapp_channel.put", async (caller, request) => {
        const body = await readJsonBody(request, { maxBytes: MAX_BODY_BYTES });
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
      handler: guard("whatsapp_channel.remove", async (caller, request) => {
        await request.body?.cancel().catch(() => {});
        await whatsappChannel.remove(caller);
        return new Response(null, { status: 204 });
      }),
    },
  ];
}
