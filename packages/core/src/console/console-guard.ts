import { resolveAdminCaller, type AdminCaller } from "../admin/admin-caller.js";
import { isVitrinaError, VitrinaError, type FieldReason } from "../errors.js";
import { statusForCode } from "../http/json.js";
import type { Mount } from "../http/mount.js";
import type { RouteHandler } from "../http/router.js";
import type { RequestContext } from "../http/request-context.js";
import type { StorageRepositories } from "../ports/storage.js";
import { readConsoleForm } from "./console-form.js";
import { documentShell, errorList, htmlResponse, type ScreenContext } from "./console-page.js";
import type { ConsoleSessions } from "./console-session.js";
import { html } from "./html.js";

/** What a screen handler gets: who asks (role checked now), the frame, and the posted form. */
export interface ScreenRequest {
  caller: AdminCaller;
  ctx: ScreenContext;
  request: Request;
  url: URL;
  params: Record<string, string>;
  /** The posted form (CSRF already checked); null on GET. */
  form: URLSearchParams | null;
  logger: RequestContext["logger"];
}

export type ScreenHandler = (screen: ScreenRequest) => Promise<Response>;

/** A console route, written from the console root (`/integrations`), with the name logs use. */
export interface ScreenRoute {
  method: "GET" | "POST";
  path: string;
  route: string;
  screen: ScreenHandler;
}

export interface ConsoleGuardDeps {
  storage: Pick<StorageRepositories, "workspaces">;
  sessions: ConsoleSessions;
  mount: Mount;
  root: string;
  productName: string;
}

export const seeOther = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });

/** A page for a refusal or failure outside any form: what happened, and the way back. */
export function problemPage(
  deps: Pick<ConsoleGuardDeps, "root" | "productName">,
  status: number,
  message: string,
  reasons: FieldReason[] = [],
) {
  const title =
    status === 403
      ? "Not allowed"
      : status === 404
        ? "Not found"
        : status >= 500
          ? "Something went wrong"
          : "Request refused";
  return htmlResponse(
    documentShell({
      root: deps.root,
      title,
      productName: deps.productName,
      body: html`<main id="main">
        <h1>${title}</h1>
        <p role="alert">${message}</p>
        ${errorList(reasons)}
        <p><a href="${deps.root}/integrations">Back to the console</a></p>
      </main>`,
    }),
    status,
  );
}

/**
 * A cross-site form post is refused before its token is even looked at: the browser says where
 * the post came from (`Sec-Fetch-Site`, `Origin`). The token is the real guard; this is the belt.
 * Our own origin is `publicUrl`'s when configured (a proxy in front may hand us its own upstream
 * Host, as nginx's default `proxy_pass` does), and the request's Host either way.
 */
export function crossSite(request: Request, mount: Pick<Mount, "publicOrigin">): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return true;
  const origin = request.headers.get("origin");
  if (origin === null || origin === "null") return origin === "null";
  if (origin === mount.publicOrigin) return false;
  try {
    return new URL(origin).host !== (request.headers.get("host") ?? new URL(request.url).host);
  } catch {
    return true;
  }
}

/**
 * Wraps a screen: a live session (else off to sign-in), the caller's role read from the membership
 * on every request, the CSRF token on every post, and every refusal logged (code, route, session,
 * user; never the cookie or the form) so an operator can tell a stale tab from an attack.
 */
export function consoleGuard(deps: ConsoleGuardDeps) {
  return (route: string, screen: ScreenHandler): RouteHandler =>
    async (request, params, context: RequestContext) => {
      const url = new URL(request.url);
      const session = await deps.sessions.read(request);
      const who = { route, method: request.method, sessionId: session?.sessionId, userId: session?.userId };
      const refuse = (status: number, code: string, message: string, reasons: FieldReason[] = []) => {
        context.logger.info({ code, ...who, fields: reasons.map((r) => r.field) }, "console request refused");
        return problemPage(deps, status, message, reasons);
      };
      if (session === null) {
        await request.body?.cancel().catch(() => {});
        // Under Express's `app.use(prefix)` or Hono's `mount` the URL arrives without the prefix:
        // put it back, or sign-in would not find the page under the console and drop the deep link.
        const page = `${deps.mount.basePath}${deps.mount.routePath(url.pathname)}${url.search}`;
        const returnTo = request.method === "GET" ? page : `${deps.root}/integrations`;
        return seeOther(`${deps.root}/sign-in?return_to=${encodeURIComponent(returnTo)}`);
      }
      try {
        let form: URLSearchParams | null = null;
        if (request.method !== "GET") {
          if (crossSite(request, deps.mount))
            return refuse(403, "csrf", "This form was posted from another site and was refused.");
          form = await readConsoleForm(request);
          if (!deps.sessions.csrfMatches(session, form.get("_csrf")))
            return refuse(
              403,
              "csrf",
              "This form has expired or did not come from this console. Reload the page and try again.",
            );
        }
        const caller = await resolveAdminCaller(deps.storage, {
          kind: "console",
          workspaceId: session.workspaceId,
          keyId: session.sessionId,
          scopes: [],
          subject: session.userId,
        });
        const ctx: ScreenContext = {
          root: deps.root,
          productName: deps.productName,
          userId: session.userId,
          role: caller.role,
          workspaceId: caller.workspaceId,
          csrfToken: session.csrfToken,
          publicBase: `${deps.mount.origin(request)}${deps.mount.basePath}`,
        };
        return await screen({ caller, ctx, request, url, params, form, logger: context.logger });
      } catch (error) {
        if (isVitrinaError(error) && statusForCode(error.code) < 500)
          return refuse(statusForCode(error.code), error.code, error.message, error.reasons);
        const failure = isVitrinaError(error)
          ? error
          : new VitrinaError("internal", "console screen failed", { cause: error });
        context.logger.error(
          { code: failure.code, ...who, cause: String(failure.cause ?? failure.message) },
          "console request failed",
        );
        return problemPage(
          deps,
          statusForCode(failure.code),
          `The request failed (request id ${context.requestId ?? "unknown"}); an operator can find it in the logs.`,
        );
      }
    };
}
