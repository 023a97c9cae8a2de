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

/** The path senders post signed leads to (see `leads/lead-intake-route.ts`). */
export const LEAD_INTAKE_PATH = "/functions/v1/lead-intake";

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
  /** Where OAuth access tokens are accepted instead, for the 401 of one sent here (see AcceptedCredentials). */
  oauthElsewhere?: string;
}): Route[] {
  const guard = adminGuard({
    storage: options.storage,
    authenticate: options.authenticate,
    ...(options.oauthElsewhere !== undefined && { accepts: { oauthElsewhere: options.oauthElsewhere } }),
  });
  const intakeUrl = (request: Request) =>
    `${options.mount.origin(request)}${options.mount.basePath}${LEAD_INTAKE_PATH}`;
  return [
    meRoute({ storage: options.storage, guard }),
    ...connectorRoutes({ connectors: options.connectors, guard, intakeUrl }),
    ...apiKeyRoutes({ apiKeys: options.apiKeys, guard }),
    ...memberRoutes({ members: options.members, guard }),
  ];
}
