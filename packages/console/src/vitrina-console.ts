import type { ConsoleSurface } from "@vitrina/core";
import { checkConsoleOptions } from "./check-console-options.js";
import type { ConsoleOptions } from "./console-options.js";
import { consoleRoutes } from "./console-routes.js";

/**
 * The web console, for `createVitrina({ console })`: server-rendered pages at `<basePath>/console`
 * over the admin services core hands it (connectors, webhooks, API keys, members, conversations,
 * contacts, the WhatsApp channel). Your `signIn` hook says who the user is; the console keeps its
 * own session cookie after that.
 *
 * ```ts
 * import { vitrinaConsole } from "@vitrina/console";
 * createVitrina({
 *   …,
 *   console: vitrinaConsole({ signIn: async (request) => (await mySession(request))?.consoleUser ?? null, loginUrl: "/login" }),
 * });
 * ```
 */
export function vitrinaConsole(options: ConsoleOptions): ConsoleSurface {
  // Checked here, where the mistake is made, rather than at the first sign-in.
  checkConsoleOptions(options);
  return { mount: (host) => ({ routes: consoleRoutes({ ...host, options }) }) };
}
