import { memoryStorage } from "@vitrina/adapter-memory";
import { demoConsoleOptions, demoConsoleSignIn, vitrinaConsole, type ConsoleOptions } from "@vitrina/console";
import { isVitrinaError } from "@vitrina/core";
import { describe, expect, it } from "vitest";
import { testVitrina } from "../../adapter-postgres/test/support.js";

/** What `vitrinaConsole(options)` throws, or "accepted". */
function refusal(options: unknown) {
  try {
    vitrinaConsole(options as ConsoleOptions);
  } catch (error) {
    if (!isVitrinaError(error)) throw error;
    return { code: error.code, field: error.reasons[0]?.field, message: error.message };
  }
  return "accepted";
}

// Item 5 of issue 46: the whole console option passed as its own `signIn` was accepted, and the
// sign-in page then answered 500 ("options.signIn is not a function"). The kinds are checked when
// the console is made, before createVitrina ever sees it.
describe("vitrinaConsole checks its options when it is called, naming the one at fault", () => {
  it("the whole option passed as its signIn hook is refused at once, with a hint", () => {
    expect(refusal({ signIn: demoConsoleOptions({ userId: "u", workspaceId: "w" }) })).toEqual({
      code: "invalid_argument",
      field: "signIn",
      message:
        "vitrinaConsole: signIn must be a function (got an object); it looks like the whole option, which has a signIn of its own",
    });
    expect(refusal(demoConsoleOptions({ userId: "u", workspaceId: "w" }))).toBe("accepted");
  });

  it.each<[unknown, string]>([
    [undefined, "options"],
    [{}, "signIn"],
    [{ signIn: async () => null, loginUrl: new URL("https://login.example") }, "loginUrl"],
    [{ signIn: async () => null, sessionTtlSeconds: "3600" }, "sessionTtlSeconds"],
    [{ signIn: async () => null, sessionMaxAgeSeconds: null }, "sessionMaxAgeSeconds"],
    [{ signIn: async () => null, productName: 7 }, "productName"],
  ])("a wrong kind is refused naming the option (%#: %s)", (options, field) => {
    expect(refusal(options)).toMatchObject({ code: "invalid_argument", field });
  });

  it("the deprecated demo name is the same function", () => {
    expect(demoConsoleSignIn).toBe(demoConsoleOptions);
  });

  it("mounted by createVitrina, it serves <basePath>/console and nothing at the origin root", async () => {
    const vitrina = testVitrina(memoryStorage(), { console: vitrinaConsole({ signIn: async () => null }) });
    const root = await vitrina.handler(new Request("http://vitrina.test/console"));
    expect(root.status).toBe(303);
    expect(root.headers.get("location")).toBe("/console/integrations");
    expect(vitrina.wellKnownPaths).toEqual([]);
  });
});
