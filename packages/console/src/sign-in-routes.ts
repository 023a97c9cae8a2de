import type { StorageRepositories } from "@vitrina/core";
import type { Mount } from "@vitrina/core/admin";
import type { Route } from "@vitrina/core/http";
import { readConsoleForm } from "./console-form.js";
import { crossSite, problemPage, refuseTossedCookie, seeOther } from "./console-guard.js";
import type { ConsoleOptions } from "./console-options.js";
import { documentShell, htmlResponse } from "./console-page.js";
import type { ConsoleSessions } from "./console-session.js";
import { html } from "./html.js";
import { memberLogRef } from "./member-ref.js";

/** Where `return_to` is resolved: a placeholder origin nothing can equal by accident. */
const PLACEHOLDER_ORIGIN = "http://return-to.invalid";

/**
 * `return_to` only ever leads back into the console: a path under its root, never `//host` or a
 * backslash a browser would read as another origin. It is resolved as a browser would (dot
 * segments, `%2e%2e` included, so `/console/../x` is not under the console) and taken in its
 * serialised form, percent-encoded: a Location header can't carry an emoji or a line break, and
 * a crafted link must not turn a sign-in into a 500. Anything else goes to the first screen.
 */
export function safeReturnTo(root: string, value: string | null): string {
  const fallback = `${root}/integrations`;
  const underRoot = (path: string) => path.startsWith(`${root}/`) && !path.includes("//") && !path.includes("\\");
  if (value === null || !underRoot(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return fallback;
  const resolved = `${url.pathname}${url.search}`;
  return underRoot(resolved) ? resolved : fallback;
}

/**
 * `<console>/sign-in` asks the embedder's hook who this is and starts a console session (a sealed
 * cookie carrying the membership's session epoch); `<console>/sign-out` ends it by replacing the
 * epoch, which ends every session of that member, on every device, from their next request. A
 * cross-site post to either is refused, so nobody can sign a victim into the attacker's account
 * (login CSRF) or out of their own; so is a request carrying the session cookie twice.
 */
export function signInRoutes(deps: {
  options: ConsoleOptions;
  sessions: ConsoleSessions;
  storage: Pick<StorageRepositories, "workspaces">;
  mount: Mount;
  root: string;
  path: string;
  productName: string;
}): Route[] {
  const { options, sessions, root } = deps;

  /** The request's session if it is still live: its epoch is the membership's. */
  const liveSession = async (request: Request) => {
    const session = await sessions.read(request);
    if (session === null) return null;
    const member = await deps.storage.workspaces.getMember(session.workspaceId, session.userId);
    return member?.sessionEpoch === session.epoch ? session : null;
  };

  const signIn: Route["handler"] = async (request, _params, context) => {
    const tossed = await refuseTossedCookie(deps, request, context, "console.sign-in");
    if (tossed !== null) return tossed;
    const url = new URL(request.url);
    const returnTo = safeReturnTo(root, url.searchParams.get("return_to"));
    if (request.method === "POST") {
      if (crossSite(request, deps.mount)) {
        await request.body?.cancel().catch(() => {});
        context.logger.info({ code: "csrf", route: "console.sign-in" }, "console request refused");
        return problemPage(deps, 403, "This sign-in was posted from another site and was refused.");
      }
    } else if ((await liveSession(request)) !== null) {
      return seeOther(returnTo);
    }
    const outcome = await options.signIn(request);
    if (outcome instanceof Response) return outcome;
    if (outcome === null) {
      if (options.loginUrl === undefined)
        return problemPage(deps, 401, "Sign in to the application first; this console has no sign-in page of its own.");
      const back = `${deps.mount.origin(request)}${root}/sign-in?return_to=${encodeURIComponent(returnTo)}`;
      const login = new URL(options.loginUrl, deps.mount.origin(request));
      login.searchParams.set("return_to", back);
      return seeOther(login.toString());
    }
    const member = await deps.storage.workspaces.getMember(outcome.workspaceId, outcome.userId);
    if (member === null) {
      context.logger.info(
        {
          code: "forbidden",
          route: "console.sign-in",
          memberRef: await memberLogRef(outcome.workspaceId, outcome.userId),
        },
        "console request refused",
      );
      return problemPage(
        deps,
        403,
        `${outcome.userId} is not a member of this workspace; an owner or admin can add them under Settings → Members.`,
      );
    }
    const { session, setCookie } = await sessions.start(outcome, member.sessionEpoch, request);
    context.logger.info(
      {
        sessionId: session.sessionId,
        memberRef: await memberLogRef(outcome.workspaceId, outcome.userId),
        role: member.role,
      },
      "console: signed in",
    );
    return seeOther(returnTo, { "set-cookie": setCookie });
  };

  const signOut: Route["handler"] = async (request, _params, context) => {
    const tossed = await refuseTossedCookie(deps, request, context, "console.sign-out");
    if (tossed !== null) return tossed;
    const session = await liveSession(request);
    const form = await readConsoleForm(request).catch(() => null);
    if (session !== null && !sessions.csrfMatches(session, form?.get("_csrf") ?? null)) {
      context.logger.info(
        { code: "csrf", route: "console.sign-out", sessionId: session.sessionId },
        "console request refused",
      );
      return problemPage(
        deps,
        403,
        "This form has expired or did not come from this console. Reload the page and try again.",
      );
    }
    if (session !== null) {
      // A stale cookie ended nothing; only a live one replaces the epoch, so a replayed old cookie
      // can't sign the member out of the sessions they have now.
      await deps.storage.workspaces.endSessions(session.workspaceId, session.userId);
      context.logger.info(
        { sessionId: session.sessionId, memberRef: await memberLogRef(session.workspaceId, session.userId) },
        "console: signed out everywhere",
      );
    }
    const page = documentShell({
      root,
      title: "Signed out",
      productName: deps.productName,
      body: html`<main id="main">
        <h1>Signed out</h1>
        <p>You have signed out of the console on every device and browser.</p>
        <p><a href="${root}/sign-in">Sign in again</a></p>
      </main>`,
    });
    return htmlResponse(page, 200, { "set-cookie": sessions.clear(request) });
  };

  return [
    { method: "GET", path: `${deps.path}/sign-in`, handler: signIn },
    { method: "POST", path: `${deps.path}/sign-in`, handler: signIn },
    { method: "POST", path: `${deps.path}/sign-out`, handler: signOut },
  ];
}
