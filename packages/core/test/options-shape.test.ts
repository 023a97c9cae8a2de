import { memoryStorage } from "@vitrina/adapter-memory";
import { createVitrina, isVitrinaError, silentLogger, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { describe, expect, it } from "vitest";

// Item 5 of issue 46: an option given in the wrong shape was accepted, and the sign-in page
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
  it("the console's own options, passed where its surface belongs, are refused with what to write now", () => {
    // Code written before the console became @vitrina/console (issue 42).
    expect(refusal({ ...base(), console: { signIn: async () => null, loginUrl: "/login" } })).toEqual({
      code: "invalid_argument",
      field: "console",
      message:
        'createVitrina: console takes the console surface now: `console: vitrinaConsole({ signIn, … })` with `import { vitrinaConsole } from "@vitrina/console"` (the console is its own package); a plain options object is no longer accepted',
    });
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
    [{ console: {} }, "console.mount"],
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
        // A console surface (what `vitrinaConsole()` returns) that serves nothing.
        console: { mount: () => ({ routes: [] }) },
        rest: { enabled: true },
        quotes: { vatRate: () => 0.19 },
        leadIntake: { firstMessage: { template: "hola", language: "es", nameFallback: "amigo" } },
        database: { schema: "vitrina" },
      }),
    ).toBe("accepted");
    expect(refusal({ ...base(), retention: false, health: { readyTimeoutMs: 500 } })).toBe("accepted");
  });
});
