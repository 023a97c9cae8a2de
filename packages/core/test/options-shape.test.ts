import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, isVitrinaError, silentLogger, type VitrinaOptions } from "@vitrina/core";
import { demoConsoleOptions, demoConsoleSignIn, logMessagingTransport } from "@vitrina/core/demo";
import { describe, expect, it } from "vitest";

// Item 5 of issue 46: `console: { signIn: demoConsoleSignIn(…) }` was accepted and the sign-in page
// then answered 500 ("options.signIn is not a function"). Every option's shape is checked up front.
const SECRET_BOX_KEY = Buffer.alloc(32, 7).toString("base64");
const base = () => ({
  storage: memoryStorage(),
  messaging: logMessagingTransport(silentLogger),
  secretBox: SECRET_BOX_KEY,
});

function refusal(options: Record<string, unknown>) {
  try {
    createVitrina(options as unknown as VitrinaOptions);
  } catch (error) {
    if (!isVitrinaError(error)) throw error;
    return { code: error.code, field: error.reasons[0]?.field, message: error.message };
  }
  return "accepted";
}

describe("createVitrina checks the shape of every option, naming it", () => {
  it("the whole console option passed as its signIn hook is refused at once, with a hint", () => {
    const wrong = refusal({ ...base(), console: { signIn: demoConsoleOptions({ userId: "u", workspaceId: "w" }) } });
    expect(wrong).toEqual({
      code: "invalid_argument",
      field: "console.signIn",
      message:
        "createVitrina: console.signIn must be a function (got an object); it looks like the whole option, which has a signIn of its own",
    });
    expect(refusal({ ...base(), console: demoConsoleOptions({ userId: "u", workspaceId: "w" }) })).toBe("accepted");
  });

  it("the deprecated name is the same function", () => {
    expect(demoConsoleSignIn).toBe(demoConsoleOptions);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ storage: undefined }, "storage"],
    [{ storage: {} }, "storage.transaction"],
    [{ messaging: async () => ({}) }, "messaging"],
    [{ secretBox: 42 }, "secretBox"],
    [{ clock: { now: new Date() } }, "clock.now"],
    [{ ids: "uuid" }, "ids"],
    [{ logger: console.log }, "logger"],
    [{ health: "yes" }, "health"],
    [{ console: {} }, "console.signIn"],
    [{ oauth: { authorize: { userId: "u" } } }, "oauth.authorize"],
    [
      { oauth: { authorize: async () => new Response(), registration: { rateLimit: true } } },
      "oauth.registration.rateLimit",
    ],
    [{ mcp: { authenticate: "key" } }, "mcp.authenticate"],
    [{ rest: true }, "rest"],
    [{ webhooks: { fetch: {} } }, "webhooks.fetch"],
    [{ webhooks: { timeoutMs: "5000" } }, "webhooks.timeoutMs"],
    [
      { leadIntake: { firstMessage: { template: "x", language: "es", bodyParameters: ["name"] } } },
      "leadIntake.firstMessage.bodyParameters",
    ],
    [{ leadIntake: { firstMessage: { template: "x" } } }, "leadIntake.firstMessage.language"],
    [{ policies: [{ block: "x" }] }, "policies[0]"],
    [{ inventoryProviders: [{ name: "erp" }] }, "inventoryProviders[0].checkStock"],
    [{ retention: true }, "retention"],
    [{ retention: { extraSteps: [{ kind: "x" }] } }, "retention.extraSteps[0].run"],
    [{ whatsapp: { fetch: "https://graph.example" } }, "whatsapp.fetch"],
    [{ publicUrl: new URL("https://shop.example.com") }, "publicUrl"],
  ])("a wrong shape is refused naming the option (%#: %s)", (options, field) => {
    expect(refusal({ ...base(), ...options })).toMatchObject({ code: "invalid_argument", field });
  });

  it("accepts every documented shape, with null and false where they mean something", () => {
    expect(
      refusal({
        ...base(),
        clock: { now: () => new Date() },
        ids: () => crypto.randomUUID(),
        logger: silentLogger,
        health: true,
        retention: { deliveriesDays: null, leadPayloadsDays: 30 },
        oauth: { authorize: async () => new Response(), registration: { rateLimit: false } },
        console: { signIn: async () => null },
        rest: { enabled: true },
        quotes: { vatRate: () => 0.19 },
        leadIntake: { firstMessage: { template: "hola", language: "es", nameFallback: "amigo" } },
        database: { schema: "vitrina" },
      }),
    ).toBe("accepted");
    expect(refusal({ ...base(), retention: false, health: { readyTimeoutMs: 500 } })).toBe("accepted");
  });
});
