import type { Authenticator } from "../auth/principal.js";
import type { Mount } from "../http/mount.js";
import type { Route } from "../http/router.js";
import type { Storage } from "../ports/storage.js";
import { adminGuard } from "./admin-guard.js";
import type { ConnectorAdmin } from "./connector-admin.js";
import { connectorRoutes } from "./connector-routes.js";
import { meRoute } from "./me-route.js";
import type { ApiKeyAdmin } from "./api-key-admin.js";
import { apiKeyRoutes } from "./api-key-routes.js";
import type { MemberAdmin } from "./member-admin.js";
import { memberRoutes } from "./member-routes.js";
import type { ContactAdmin } from "./contact-admin.js";
import { contactRoutes } from "./contact-routes.js";
import type { WhatsAppChannelAdmin } from "./whatsapp-channel-admin.js";
import { whatsappChannelRoutes } from "./whatsapp-channel-routes.js";
import { WHATSAPP_WEBHOOK_PATH } from "../channels/whatsapp/webhook-route.js";
import { LEAD_INTAKE_PATH } from "../leads/lead-intake-route.js";
import type { LeadAdmin } from "./lead-admin.js";
import { leadRoutes } from "./lead-routes.js";

/**
 * Every admin API route, behind `authenticate` (API keys with `admin:read` / `admin:write`, or a
 * console session principal whose role comes from its membership).
 */
export function adminRoutes(options: {
  storage: Storage;
  authenticate: Authenticator;
  mount: Mount;
  connectors: ConnectorAdmin;
  apiKeys: ApiKeyAdmin;
  members: MemberAdmin;
  whatsappChannel: WhatsAppChannelAdmin;
  contacts: ContactAdmin;
  leads: LeadAdmin;
  /** Where OAuth access tokens are accepted instead, for the 401 of one sent here (see AcceptedCredentials). */
  oauthElsewhere?: string;
}): Route[] {
  const guard = adminGuard({
    storage: options.storage,
    authenticate: options.authenticate,
    ...(options.oauthElsewhere !== undefined && { accepts: { oauthElsewhere: options.oauthElsewhere } }),
  });
  // What senders and providers are told to call: publicUrl (or the request's origin) + basePath + path.
  const publicUrlOf = (path: string) => (request: Request) =>
    `${options.mount.origin(request)}${options.mount.basePath}${path}`;
  return [
    meRoute({ storage: options.storage, guard }),
    ...connectorRoutes({ connectors: options.connectors, guard, intakeUrl: publicUrlOf(LEAD_INTAKE_PATH) }),
    ...apiKeyRoutes({ apiKeys: options.apiKeys, guard }),
    ...memberRoutes({ members: options.members, guard }),
    ...whatsappChannelRoutes({
      whatsappChannel: options.whatsappChannel,
      guard,
      webhookUrl: publicUrlOf(WHATSAPP_WEBHOOK_PATH),
    }),
    ...contactRoutes({ contacts: options.contacts, guard }),
    ...leadRoutes({ leads: options.leads, guard }),
  ];
}
