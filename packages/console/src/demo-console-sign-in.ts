import { readConsoleForm } from "./console-form.js";
import type { ConsoleOptions, ConsoleUser } from "./console-options.js";
import { documentShell, htmlResponse } from "./console-page.js";
import { html } from "./html.js";

/**
 * The console's options for demos (`console: vitrinaConsole(demoConsoleOptions({ userId, workspaceId }))`):
 * its `signIn` has no password, a page with one button that signs in as a fixed user (the demo
 * owner). Production embedders return the user their own session names, or null to send visitors
 * to `loginUrl`:
 *
 * ```ts
 * createVitrina({ …, console: vitrinaConsole({ signIn: async (request) => (await mySession(request))?.consoleUser ?? null, loginUrl: "/login" }) });
 * ```
 */
export function demoConsoleOptions(user: ConsoleUser & { productName?: string; basePath?: string }): ConsoleOptions {
  const root = `${user.basePath ?? ""}/console`;
  return {
    productName: user.productName,
    async signIn(request) {
      if (request.method === "POST") {
        const form = await readConsoleForm(request);
        return form.get("decision") === "sign-in" ? { userId: user.userId, workspaceId: user.workspaceId } : null;
      }
      const returnTo = new URL(request.url).searchParams.get("return_to") ?? `${root}/integrations`;
      const page = documentShell({
        root,
        title: "Sign in",
        productName: user.productName ?? "Vitrina",
        body: html`<main id="main">
          <h1>Sign in to the ${user.productName ?? "Vitrina"} console</h1>
          <p>
            This is the demo: there is no password. You sign in as <strong>${user.userId}</strong>, the owner of the
            demo workspace.
          </p>
          <form method="post" action="${root}/sign-in?return_to=${encodeURIComponent(returnTo)}">
            <button name="decision" value="sign-in" type="submit">Sign in as ${user.userId}</button>
          </form>
        </main>`,
      });
      return htmlResponse(page);
    },
  };
}

/**
 * @deprecated Renamed `demoConsoleOptions`: it returns the console's whole options, not a `signIn`
 * hook. Kept so existing demos keep working; it will go in the next minor version.
 */
export const demoConsoleSignIn = demoConsoleOptions;
