import { afterEach, describe, expect, it } from "vitest";
import type { VitrinaConfig } from "../src/config/config-file.js";
import type { CliContext } from "../src/cli/context.js";
import { runCommandInProcess } from "./support/cli-in-process.js";

// Item 4 of issue 46: the http-node README's vitrina.config.mjs has `publicUrl` with a path; every
// command but `migrate` failed on it ("publicUrl is the origin only"), and with an origin-only
// publicUrl plus basePath the printed intake URL lost the prefix.
const opened: CliContext[] = [];
afterEach(async () => {
  while (opened.length > 0) await opened.pop()!.vitrina.close();
});

async function createConnector(config: VitrinaConfig, flags: Record<string, string> = {}) {
  const run = await runCommandInProcess(
    "connectors",
    ["create"],
    { name: "CRM", "system-id": "crm", user: "owner-1", json: true, ...flags },
    {
      config,
      prepare: async (ctx) => {
        opened.push(ctx);
        const workspace = await ctx.vitrina.workspaces.create({ name: "Acme", ownerUserId: "owner-1" });
        return { workspace: workspace.id };
      },
    },
  );
  return run.json().lead_intake_url as string;
}

describe("the CLI with the documented publicUrl forms: every printed URL carries the mount", () => {
  it("publicUrl with a path, origin + basePath, or both agreeing: the same intake URL", async () => {
    for (const config of [
      { publicUrl: "https://api.acme.example/vitrina" },
      { publicUrl: "https://api.acme.example", basePath: "/vitrina" },
      { publicUrl: "https://api.acme.example/vitrina/", basePath: "/vitrina" },
    ]) {
      expect(await createConnector(config), JSON.stringify(config)).toBe(
        "https://api.acme.example/vitrina/functions/v1/lead-intake",
      );
    }
  });

  it("--public-url: an origin gets the configured basePath, a URL with a path is taken whole", async () => {
    expect(await createConnector({ basePath: "/vitrina" }, { "public-url": "https://crm-facing.example" })).toBe(
      "https://crm-facing.example/vitrina/functions/v1/lead-intake",
    );
    expect(await createConnector({ basePath: "/vitrina" }, { "public-url": "https://crm-facing.example/in/" })).toBe(
      "https://crm-facing.example/in/functions/v1/lead-intake",
    );
  });

  it("without any public URL the placeholder still shows the prefix", async () => {
    expect(await createConnector({ basePath: "/vitrina" })).toBe(
      "<your public URL>/vitrina/functions/v1/lead-intake (pass --public-url or set publicUrl in vitrina.config.mjs)",
    );
  });

  it("whatsapp set prints the webhook URL under the mount from a publicUrl with a path", async () => {
    // `whatsapp set` reads the app secret from its environment, never from a flag.
    const run = await runCommandInProcess(
      "whatsapp",
      ["set"],
      { "phone-number-id": "1065", "receive-only": true, json: true },
      {
        config: { publicUrl: "https://api.acme.example/vitrina" },
        env: { VITRINA_WHATSAPP_APP_SECRET: "app-secret-for-the-test" },
        prepare: async (ctx) => {
          opened.push(ctx);
          const workspace = await ctx.vitrina.workspaces.create({ name: "Acme", ownerUserId: "owner-1" });
          return { workspace: workspace.id };
        },
      },
    );
    expect(run.json().webhook_url).toBe("https://api.acme.example/vitrina/functions/v1/whatsapp-webhook");
  });
});
