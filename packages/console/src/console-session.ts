import type { Clock, SecretBox } from "@vitrina/core";
import { bytesToBase64Url, timingSafeEqualStrings } from "@vitrina/core/admin";
import type { ConsoleUser } from "./console-options.js";

/**
 * A console session lives in one cookie sealed with the secret box (AES-256-GCM by default): nobody
 * can read or forge it without the key. It holds the user, the membership's session epoch at
 * sign-in, when it was signed in, an idle expiry renewed while in use (never past `maxAgeSeconds`
 * from sign-in), and the CSRF token every form echoes back. What a user may do is not in it: each
 * request reads the membership, with its epoch, so a demotion, a removal or a sign-out (which
 * replaces the epoch) applies at once, to every copy of the cookie.
 */
export interface ConsoleSession extends ConsoleUser {
  /** A random id: the principal's `keyId`, and what logs name the session by. */
  sessionId: string;
  csrfToken: string;
  /** The membership's `sessionEpoch` when signed in; a different stored one means signed out. */
  epoch: string;
  signedInAt: number;
  expiresAt: number;
}

/**
 * Over https the cookie is `__Host-` prefixed, which browsers accept only with `Secure`, `Path=/`
 * and no `Domain`: a sibling subdomain can't plant one (cookie tossing). Path scoping inside one
 * origin was never a boundary, so `Path=/` gives nothing away. Plain http (the localhost demo) keeps
 * the unprefixed name, scoped to the console, and relies on refusing a request that carries two.
 */
const COOKIE_NAME = "vitrina_console";
const HOST_COOKIE_NAME = `__Host-${COOKIE_NAME}`;
const FORMAT_VERSION = 2;

function randomToken(): string {
  return bytesToBase64Url(crypto.getRandomValues(new Uint8Array(24)));
}

/** Every value of the cookie `name` in a `Cookie` header, in the order sent. */
export function readCookies(request: Request, name: string): string[] {
  const values: string[] = [];
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

export function createConsoleSessions(deps: {
  secretBox: SecretBox;
  clock: Clock;
  /** Idle lifetime: a session unused this long ends; one in use is renewed. */
  ttlSeconds: number;
  /** Absolute lifetime from sign-in, however busy the session. */
  maxAgeSeconds: number;
  path: string;
  /** Whether the console is reached over https (directly or as `publicUrl` says). */
  secure: (request: Request) => boolean;
}) {
  const cookieName = (secure: boolean) => (secure ? HOST_COOKIE_NAME : COOKIE_NAME);
  const attributes = (secure: boolean, maxAge: number) =>
    secure
      ? `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}; Secure`
      : `Path=${deps.path}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}`;

  async function cookieFor(session: ConsoleSession, request: Request): Promise<string> {
    const secure = deps.secure(request);
    const sealed = await deps.secretBox.seal(JSON.stringify({ v: FORMAT_VERSION, ...session }));
    const maxAge = Math.max(0, Math.ceil((session.expiresAt - deps.clock.now().getTime()) / 1000));
    return `${cookieName(secure)}=${sealed}; ${attributes(secure, maxAge)}`;
  }

  return {
    /** A new session for `user`, signed in under the membership's `epoch`, and its `Set-Cookie` value. */
    async start(
      user: ConsoleUser,
      epoch: string,
      request: Request,
    ): Promise<{ session: ConsoleSession; setCookie: string }> {
      const now = deps.clock.now().getTime();
      const session: ConsoleSession = {
        userId: user.userId,
        workspaceId: user.workspaceId,
        sessionId: randomToken(),
        csrfToken: randomToken(),
        epoch,
        signedInAt: now,
        expiresAt: Math.min(now + deps.ttlSeconds * 1000, now + deps.maxAgeSeconds * 1000),
      };
      return { session, setCookie: await cookieFor(session, request) };
    },

    /**
     * True when the request carries the session cookie twice: one of them was planted (by a sibling
     * subdomain, say) to be sent first. Such a request is refused rather than guessed at.
     */
    tossed(request: Request): boolean {
      return readCookies(request, cookieName(deps.secure(request))).length > 1;
    },

    /** The request's session, or null (none, two, tampered, sealed with another key, or expired). */
    async read(request: Request): Promise<ConsoleSession | null> {
      const values = readCookies(request, cookieName(deps.secure(request)));
      const sealed = values.length === 1 ? values[0]! : null;
      if (sealed === null || sealed.length > 4096) return null;
      try {
        const parsed = JSON.parse(await deps.secretBox.open(sealed)) as Partial<ConsoleSession> & { v?: number };
        const { userId, workspaceId, sessionId, csrfToken, epoch, signedInAt, expiresAt } = parsed;
        if (parsed.v !== FORMAT_VERSION || typeof expiresAt !== "number" || typeof signedInAt !== "number") return null;
        if (expiresAt <= deps.clock.now().getTime()) return null;
        if (![userId, workspaceId, sessionId, csrfToken, epoch].every((v) => typeof v === "string")) return null;
        return {
          userId: userId!,
          workspaceId: workspaceId!,
          sessionId: sessionId!,
          csrfToken: csrfToken!,
          epoch: epoch!,
          signedInAt,
          expiresAt,
        };
      } catch {
        return null;
      }
    },

    /**
     * Sliding renewal: the `Set-Cookie` value that extends a session past half its idle lifetime to
     * a full one (never beyond `maxAgeSeconds` from sign-in), or null when it is fresh enough.
     */
    async renewal(session: ConsoleSession, request: Request): Promise<string | null> {
      const now = deps.clock.now().getTime();
      const expiresAt = Math.min(now + deps.ttlSeconds * 1000, session.signedInAt + deps.maxAgeSeconds * 1000);
      if (session.expiresAt - now > (deps.ttlSeconds * 1000) / 2 || expiresAt <= session.expiresAt) return null;
      return cookieFor({ ...session, expiresAt }, request);
    },

    /** The `Set-Cookie` value that removes the session from the browser. */
    clear(request: Request): string {
      const secure = deps.secure(request);
      return `${cookieName(secure)}=; ${attributes(secure, 0)}`;
    },

    /** True when the form's token is the session's (constant time). */
    csrfMatches(session: ConsoleSession, token: string | null): boolean {
      return token !== null && timingSafeEqualStrings(token, session.csrfToken);
    },
  };
}
export type ConsoleSessions = ReturnType<typeof createConsoleSessions>;
