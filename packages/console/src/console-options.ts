/** Who signed in to the console: a user of one workspace (their role comes from the membership). */
export interface ConsoleUser {
  userId: string;
  workspaceId: string;
}

/**
 * Who the user is is the embedder's call, as with the OAuth `authorize` hook: return the user
 * (your session says who they are), a Response (your own sign-in page, or a redirect), or null
 * (nobody is signed in: the console sends them to `loginUrl`). The hook runs only at
 * `<basePath>/console/sign-in` (GET and POST); after it, the console keeps its own session cookie.
 */
export type ConsoleSignInHook = (request: Request) => Promise<ConsoleUser | Response | null>;

/** `vitrinaConsole({ … })`: the web console at `<basePath>/console`. */
export interface ConsoleOptions {
  signIn: ConsoleSignInHook;
  /**
   * Where a visitor nobody signed in is sent, with `return_to` set to the console's sign-in URL
   * (send them back there once signed in). Absolute, or a path on this origin. Without it, such a
   * visitor gets a page saying they must sign in.
   */
  loginUrl?: string;
  /**
   * How long an unused console session lasts, in seconds; each request past half of it renews it
   * (sliding). Default 3600 (1 hour).
   */
  sessionTtlSeconds?: number;
  /** The longest a console session lasts from sign-in however busy, in seconds. Default 28800 (8 hours). */
  sessionMaxAgeSeconds?: number;
  /** The product name in the page titles and header. Default "Vitrina". */
  productName?: string;
}

export const CONSOLE_PATH = "/console";
export const DEFAULT_CONSOLE_SESSION_TTL_SECONDS = 60 * 60;
export const DEFAULT_CONSOLE_SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;
