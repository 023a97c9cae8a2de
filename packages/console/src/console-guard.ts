import { type FieldReason, isVitrinaError, type StorageRepositories, VitrinaError } from "@vitrina/core";
import { type AdminCaller, type Mount, type RequestContext, resolveAdminCaller } from "@vitrina/core/admin";
import { type RouteHandler, statusForCode } from "@vitrina/core/http";
import { readConsoleForm } from "./console-form.js";
import { documentShell, errorList, htmlResponse, type ScreenContext } from "./console-page.js";
import type { ConsoleSessions } from "./console-session.js";
import { html } from "./html.js";
import { memberLogRef } from "./member-ref.js";

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
  /** How log lines name the signed-in member (`memberLogRef`): never the user id, often an email. */
  memberRef: string;
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

/** `response` with one more `Set-Cookie` (copied first when its headers are immutable). */
function withCookie(response: Response, setCookie: string): Response {
  const copy = new Response(response.body, response);
  copy.headers.append("set-cookie", setCookie);
  return copy;
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
 * Refuses a request carrying the session cookie twice (one was planted to be sent first, "cookie
 * tossing"), clearing ours so that signing in again works; null when there is one or none.
 */
export async function refuseTossedCookie(
  deps: Pick<ConsoleGuardDeps, "sessions" | "root" | "productName">,
  request: Request,
  context: RequestContext,
  route: string,
): Promise<Response | null> {
  if (!deps.sessions.tossed(request)) return null;
  await request.body?.cancel().catch(() => {});
  context.logger.warn({ code: "duplicate_session_cookie", route, method: request.method }, "console request refused");
  const page = problemPage(
    deps,
    400,
    "This browser sent two console session cookies, and one of them was not set by this console. Clear this site's cookies, then sign in again.",
  );
  page.headers.append("set-cookie", deps.sessions.clear(request));
  return page;
}

/**
 * Wraps a screen: one live session (else off to sign-in; two cookies are refused), the caller's
 * role and session epoch read from the membership on every request (a sign-out anywhere ends the
 * session at once), the CSRF token on every post, a renewed cookie past half its idle lifetime, and
 * every refusal logged (code, route, session id, `memberRef`; never the cookie, the form or the
 * user id) so an operator can tell a stale tab from an attack.
 */
export function consoleGuard(deps: ConsoleGuardDeps) {
  return (route: string, screen: ScreenHandler): RouteHandler =>
    async (request, params, context: RequestContext) => {
      const url = new URL(request.url);
      const tossed = await refuseTossedCookie(deps, request, context, route);
      if (tossed !== null) return tossed;
      const session = await deps.sessions.read(request);
      const memberRef = session === null ? undefined : await memberLogRef(session.workspaceId, session.userId);
      const who = { route, method: request.method, sessionId: session?.sessionId, memberRef };
      const refuse = (status: number, code: string, message: string, reasons: FieldReason[] = []) => {
        context.logger.info({ code, ...who, fields: reasons.map((r) => r.field) }, "console request refused");
        return problemPage(deps, status, message, reasons);
      };
      const toSignIn = async (headers: Record<string, string> = {}) => {
        await request.body?.cancel().catch(() => {});
        // Under Express's `app.use(prefix)` or Hono's `mount` the URL arrives without the prefix:
        // put it back, or sign-in would not find the page under the console and drop the deep link.
        const page = `${deps.mount.basePath}${deps.mount.routePath(url.pathname)}${url.search}`;
        const returnTo = request.method === "GET" ? page : `${deps.root}/integrations`;
        return seeOther(`${deps.root}/sign-in?return_to=${encodeURIComponent(returnTo)}`, headers);
      };
      if (session === null || memberRef === undefined) return toSignIn();
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
          sessionEpoch: session.epoch,
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
        const response = await screen({ caller, ctx, request, url, params, form, logger: context.logger, memberRef });
        const renewed = await deps.sessions.renewal(session, request);
        return renewed === null ? response : withCookie(response, renewed);
      } catch (error) {
        if (isVitrinaError(error) && error.code === "unauthorized") {
          context.logger.info({ code: "session_ended", ...who }, "console request refused");
          return toSignIn({ "set-cookie": deps.sessions.clear(request) });
        }
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
