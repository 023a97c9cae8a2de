import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { silentLogger } from "@vitrina/core";
import { serveVitrina } from "@vitrina/http-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM without types, run from source like main.mjs does
import { createDemo, demoCredentials, demoWebhookSecret, writeDemoCredentials } from "../../server/src/demo.mjs";

// The tour as the README runs it: the script in a child process of its own (on the built
// @vitrina/client, as a user runs it), against a demo server started in this process as main.mjs
// starts it (its handler with the demo-only route, the worker beside it), reading only the
// credentials file the demo wrote.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const built = existsSync(join(root, "packages/client/dist/node.js"));
if (!built)
  console.warn("skipping the WhatsApp tour: run `pnpm build` first (the script runs the built @vitrina/client)");
const run = promisify(execFile);

describe.runIf(built)("examples/whatsapp-provider's tour against the demo", () => {
  let dir: string;
  let credentialsPath: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "vitrina-wa-tour-"));
    credentialsPath = join(dir, "demo-credentials.json");
    const env = { VITRINA_STORAGE: "memory", VITRINA_DEMO_CREDENTIALS: credentialsPath };
    const demo = await createDemo({ env, logger: silentLogger, memory: true, credentialsPath });
    const server = await serveVitrina(
      { handler: demo.handler, outbox: demo.vitrina.outbox },
      { port: 0, handleSignals: false },
    );
    stop = async () => {
      await server.close();
      await demo.vitrina.close();
    };
    await writeDemoCredentials(
      credentialsPath,
      demoCredentials(demo, server.url, await demoWebhookSecret(credentialsPath)),
    );
  });
  afterAll(async () => {
    await stop?.();
    await rm(dir, { recursive: true, force: true });
  });

  it("reports the first message read, puts the reply in the thread, and shows the lead after BAJA blocked", async () => {
    const { stdout } = await run(
      process.execPath,
      [join(root, "examples/whatsapp-provider/src/tour.mjs"), "--phone", "+56955508001"],
      { cwd: dir, env: { ...process.env, VITRINA_DEMO_CREDENTIALS: credentialsPath } },
    );
    const lines = stdout.split("\n").map((line) => line.trim().replace(/\s+/g, " "));
    expect(lines).toContain("outbound.status sent");
    expect(lines.filter((l) => /^(sent|delivered|read) → 200 1 status recorded$/.test(l))).toHaveLength(3);
    expect(lines).toContain("lead resent duplicate: true");
    expect(lines).toContain("outbound.status read");
    expect(stdout).toMatch(/agent +\[template vitrina_welcome\] Camila Rojas/);
    expect(stdout).toMatch(/contact +Hola, ¿el depto 804 sigue disponible\?/);
    expect(lines).toContain("BAJA → 200 1 message recorded, 1 opt-out");
    expect(stdout).toMatch(/outbound\.status +blocked \(contact opted out of WhatsApp at /);
  });

  it("says where the credentials come from when there are none, with exit code 2", async () => {
    const failed = await run(process.execPath, [join(root, "examples/whatsapp-provider/src/tour.mjs")], {
      cwd: dir,
      env: { ...process.env, VITRINA_DEMO_CREDENTIALS: join(dir, "missing.json") },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringMatching(/start the demo server first/) });
  });
});
