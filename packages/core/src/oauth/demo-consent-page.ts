import type { AuthorizeHook } from "./oauth-options.js";
import { readOAuthForm } from "./oauth-http.js";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * An `authorize` hook for demos: there is no login, every request acts as one fixed user of one
 * workspace, who sees a consent page (GET) and approves or denies it (POST to the same URL).
 * Production embedders write their own hook: check their session, send unknown users to their
 * login page (return a redirect Response), and show their own consent screen.
 *
 * ```ts
 * createVitrina({ …, oauth: { authorize: demoConsentPage({ userId: "u_owner", workspaceId }) } });
 * ```
 */
export function demoConsentPage(user: { userId: string; workspaceId: string; serviceName?: string }): AuthorizeHook {
  return async (request, { client, scopes, deny }) => {
    if (request.method === "POST") {
      // The page has no CSRF token (there is no session to bind one to), so a cross-site POST is refused.
      const origin = request.headers.get("origin");
      if (origin !== null && origin !== new URL(request.url).origin) return deny();
      const form = await readOAuthForm(request);
      return form.get("decision") === "approve"
        ? { userId: user.userId, workspaceId: user.workspaceId, grantedScopes: scopes }
        : deny();
    }
    const clientName = typeof client.metadata.client_name === "string" ? client.metadata.client_name : client.id;
    const items = scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join("");
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize ${escapeHtml(clientName)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto">
<h1>Authorize ${escapeHtml(clientName)}</h1>
<p>${escapeHtml(clientName)} wants to use ${escapeHtml(user.serviceName ?? "Vitrina")} as <strong>${escapeHtml(user.userId)}</strong> with these scopes:</p>
<ul>${items}</ul>
<form method="post"><button name="decision" value="approve">Approve</button> <button name="decision" value="deny">Deny</button></form>
</body></html>`;
    return new Response(html, {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "x-frame-options": "DENY",
        "content-security-policy": "frame-ancestors 'none'",
      },
    });
  };
}
