import { vitrinaConsole } from "@vitrina/console";

export const TEST_LOGIN_URL = "https://login.example.test/sign-in";

/** The console with the embedder's hook of these tests: the user is whoever `x-test-user` names (their session, in real life). */
export const testConsoleSignIn = (workspaceId: () => string) =>
  vitrinaConsole({
    loginUrl: TEST_LOGIN_URL,
    async signIn(request) {
      const user = request.headers.get("x-test-user");
      return user === null ? null : { userId: user, workspaceId: workspaceId() };
    },
  });

/**
 * A browser's part in console tests without a browser: one cookie jar, same-origin form posts
 * with the page's CSRF token, and redirects followed by hand so each hop can be checked.
 */
export function consoleClient(baseUrl: string) {
  let cookie: string | null = null;
  let lastSetCookie: string | null = null;

  async function request(
    method: string,
    path: string,
    init: { form?: Record<string, string | string[]>; headers?: Record<string, string> } = {},
  ) {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(init.form ?? {}))
      for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    const response = await fetch(new URL(path, baseUrl), {
      method,
      redirect: "manual",
      headers: {
        ...(cookie === null ? {} : { cookie }),
        ...(method === "POST"
          ? { "content-type": "application/x-www-form-urlencoded", origin: new URL(baseUrl).origin }
          : {}),
        ...init.headers,
      },
      body: method === "POST" ? body.toString() : undefined,
    });
    const setCookie = response.headers.get("set-cookie");
    if (setCookie !== null) {
      lastSetCookie = setCookie;
      const pair = setCookie.split(";")[0]!;
      cookie = pair.endsWith("=") ? null : pair;
    }
    return {
      status: response.status,
      location: response.headers.get("location"),
      headers: response.headers,
      text: await response.text(),
    };
  }

  return {
    get: (path: string, headers?: Record<string, string>) => request("GET", path, { headers }),
    post: (path: string, form: Record<string, string | string[]>, headers?: Record<string, string>) =>
      request("POST", path, { form, headers }),
    /** The CSRF token of a page the client fetched. */
    csrfOf: (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "",
    get cookie() {
      return cookie;
    },
    set cookie(value: string | null) {
      cookie = value;
    },
    get lastSetCookie() {
      return lastSetCookie;
    },
  };
}
