import { bytesToBase64Url } from "../crypto/encoding.js";
import { timingSafeEqualStrings } from "../crypto/hmac.js";
import type { Clock } from "../ports/clock.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { ConsoleUser } from "./console-options.js";

/**
 * A console session lives in one cookie sealed with the secret box (AES-256-GCM by default): the
 * server stores nothing, and nobody can read or forge it without the key. It holds the user, an
 * absolute expiry and the CSRF token every form echoes back. What a user may do is not in it:
 * each request reads their membership, so a demotion or removal applies at once. Signing out
 * clears the cookie; a copied cookie stays valid until it expires, so the lifetime is short.
 */
export interface ConsoleSession extends ConsoleUser {
  /** A random id: the principal's `keyId`, and what logs name the session by. */
  sessionId: string;
  csrfToken: string;
  expiresAt: number;
}

const COOKIE_NAME = "vitrina_console";
const FORMAT_VERSION = 1;

function randomToken(): string {
  return bytesToBase64Url(crypto.getRandomValues(new Uint8Array(24)));
}

/** The value of one cookie in a `Cookie` header, or null. */
export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function createConsoleSessions(deps: { secretBox: SecretBox; clock: Clock; ttlSeconds: number; path: string }) {
  /** `Secure` whenever the console is reached over https (directly or as the public URL says). */
  const attributes = (secure: boolean, maxAge: number) =>
    `Path=${deps.path}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;

  return {
    /** A new session for `user` and the `Set-Cookie` value that carries it. */
    async start(user: ConsoleUser, secure: boolean): Promise<{ session: ConsoleSession; setCookie: string }> {
      const session: ConsoleSession = {
        userId: user.userId,
        workspaceId: user.workspaceId,
        sessionId: randomToken(),
        csrfToken: randomToken(),
        expiresAt: deps.clock.now().getTime() + deps.ttlSeconds * 1000,
      };
      const sealed = await deps.secretBox.seal(JSON.stringify({ v: FORMAT_VERSION, ...session }));
      return { session, setCookie: `${COOKIE_NAME}=${sealed}; ${attributes(secure, deps.ttlSeconds)}` };
    },

    /** The request's live session, or null (none, tampered, sealed with another key, or expired). */
    async read(request: Request): Promise<ConsoleSession | null> {
      const sealed = readCookie(request, COOKIE_NAME);
      if (sealed === null || sealed.length > 4096) return null;
      try {
        const parsed = JSON.parse(await deps.secretBox.open(sealed)) as Partial<ConsoleSession> & { v?: number };
        if (parsed.v !== FORMAT_VERSION || typeof parsed.expiresAt !== "number") return null;
        if (parsed.expiresAt <= deps.clock.now().getTime()) return null;
        const { userId, workspaceId, sessionId, csrfToken, expiresAt } = parsed;
        if (![userId, workspaceId, sessionId, csrfToken].every((v) => typeof v === "string")) return null;
        return { userId: userId!, workspaceId: workspaceId!, sessionId: sessionId!, csrfToken: csrfToken!, expiresAt };
      } catch {
        return null;
      }
    },

    /** The `Set-Cookie` value that removes the session from the browser. */
    clear(secure: boolean): string {
      return `${COOKIE_NAME}=; ${attributes(secure, 0)}`;
    },

    /** True when the form's token is the session's (constant time). */
    csrfMatches(session: ConsoleSession, token: string | null): boolean {
      return token !== null && timingSafeEqualStrings(token, session.csrfToken);
    },
  };
}
export type ConsoleSessions = ReturnType<typeof createConsoleSessions>;
