import { LEAD_INTAKE_PATH, type ConsoleHost } from "@vitrina/core/admin";
import type { Route } from "@vitrina/core/http";
import { WHATSAPP_WEBHOOK_PATH } from "@vitrina/core/whatsapp";
import { CONSOLE_ASSETS } from "./console-assets.js";
import { consoleGuard, seeOther } from "./console-guard.js";
import {
  CONSOLE_PATH,
  DEFAULT_CONSOLE_SESSION_MAX_AGE_SECONDS,
  DEFAULT_CONSOLE_SESSION_TTL_SECONDS,
  type ConsoleOptions,
} from "./console-options.js";
import { createConsoleSessions } from "./console-session.js";
import { apiKeyScreens } from "./screens/api-keys.js";
import { contactScreens } from "./screens/contact.js";
import { conversationScreens } from "./screens/conversations.js";
import { integrationScreens } from "./screens/integrations.js";
import { memberScreens } from "./screens/members.js";
import { webhookScreens } from "./screens/webhooks.js";
import { whatsAppChannelScreens } from "./screens/whatsapp-channel.js";
import { signInRoutes } from "./sign-in-routes.js";
import { leadScreens } from "./screens/leads.js";

/**
 * The web console under `<basePath>/console`: server-rendered pages over the same admin services
 * as the admin API, so a role check or a validation rule lives in one place for both.
 */
export function consoleRoutes(deps: ConsoleHost & { options: ConsoleOptions }): Route[] {
  const root = `${deps.mount.basePath}${CONSOLE_PATH}`;
  const productName = deps.options.productName ?? "Vitrina";
  const sessions = createConsoleSessions({
    secretBox: deps.secretBox,
    clock: deps.clock,
    ttlSeconds: deps.options.sessionTtlSeconds ?? DEFAULT_CONSOLE_SESSION_TTL_SECONDS,
    maxAgeSeconds: deps.options.sessionMaxAgeSeconds ?? DEFAULT_CONSOLE_SESSION_MAX_AGE_SECONDS,
    path: root,
    secure: (request) => deps.mount.origin(request).startsWith("https:"),
  });
  const guard = consoleGuard({ storage: deps.storage, sessions, mount: deps.mount, root, productName });
  const screens = [
    ...integrationScreens({
      connectors: deps.connectors,
      intakeUrl: (ctx) => `${ctx.publicBase}${LEAD_INTAKE_PATH}`,
      headerNames: deps.headerNames,
      leads: deps.leads,
    }),
    ...leadScreens({ leads: deps.leads, connectors: deps.connectors }),
    ...webhookScreens({ webhooks: deps.webhooks, sendTestDelivery: deps.sendTestDelivery }),
    ...apiKeyScreens({ apiKeys: deps.apiKeys }),
    ...memberScreens({ members: deps.members }),
    ...conversationScreens({ storage: deps.storage, clock: deps.clock }),
    ...contactScreens({ contacts: deps.contacts, privacy: deps.privacy, clock: deps.clock }),
    ...whatsAppChannelScreens({
      channels: deps.whatsappChannels,
      // The same path the webhook route is mounted at, under the origin and basePath clients reach.
      callbackUrl: (ctx) => `${ctx.publicBase}${WHATSAPP_WEBHOOK_PATH}`,
    }),
  ];
  const assets: Route[] = Object.values(CONSOLE_ASSETS).map((asset) => ({
    method: "GET",
    path: `${CONSOLE_PATH}${asset.path}`,
    handler: async () =>
      new Response(asset.body, {
        headers: {
          "content-type": asset.type,
          "cache-control": "public, max-age=31536000, immutable",
          "x-content-type-options": "nosniff",
        },
      }),
  }));
  return [
    { method: "GET", path: CONSOLE_PATH, handler: async () => seeOther(`${root}/integrations`) },
    ...assets,
    ...signInRoutes({
      options: deps.options,
      sessions,
      storage: deps.storage,
      mount: deps.mount,
      root,
      path: CONSOLE_PATH,
      productName,
    }),
    ...screens.map((s) => ({ method: s.method, path: `${CONSOLE_PATH}${s.path}`, handler: guard(s.route, s.screen) })),
  ];
}
