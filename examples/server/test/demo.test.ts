import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The README's tour, as a new user runs it: the demo server from plain Node on the built
// packages, then the CRM sender against it. `pnpm test` builds first; `pnpm test:unit` alone
// can't run this (it needs dist/), so it says so instead of failing obscurely.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const built = existsSync(join(root, "packages/http-node/dist/index.js")) && existsSync(join(root, "packages/client/dist/node.js"));
const run = promisify(execFile);

describe.runIf(built)("demo server and crm-sender (built packages; run `pnpm build` first)", () => {
  let dir: string;
  let server: ChildProcess;
  let exited: Promise<number | null>;
  const credentialsFile = () => join(dir, "credentials.json");

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "vitrina-demo-"));
    server = spawn(process.execPath, [join(root, "examples/server/src/main.mjs"), "--memory"], {
      env: { ...process.env, PORT: "0", VITRINA_DEMO_CREDENTIALS: credentialsFile(), DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    exited = new Promise((resolve) => server.once("exit", resolve));
    let output = "";
    await new Promise<void>((resolve, reject) => {
      server.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Stop with Ctrl-C")) resolve();
      });
      server.once("exit", (code) => reject(new Error(`demo server exited with ${code}: ${output}`)));
    });
  }, 60_000);

  afterAll(async () => {
    server?.kill("SIGTERM");
    await exited;
    await rm(dir, { recursive: true, force: true });
  });

  const sendLead = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [join(root, "examples/crm-sender/src/send-lead.mjs"), ...args], {
      env: { ...process.env, VITRINA_DEMO_CREDENTIALS: credentialsFile() },
    });
    return JSON.parse(stdout);
  };

  it("writes the credentials file with everything the README's scripts use", async () => {
    const credentials = JSON.parse(await readFile(credentialsFile(), "utf8"));
    expect(Object.keys(credentials).sort()).toEqual(
      ["apiKey", "connectorId", "connectorSecret", "leadIntakeUrl", "mcpUrl", "webhooksUrl", "workspaceId"].sort(),
    );
  });

  it("accepts a signed lead from crm-sender and sends the (logged) first message", async () => {
    expect(await sendLead("--phone", "+56955501234")).toMatchObject({ accepted: true, duplicate: false, outbound: { status: "sent" } });
  });

  it("blocks the first message for the demo's opted-out phone", async () => {
    expect(await sendLead("--phone", "+56900000000")).toMatchObject({ accepted: true, outbound: { status: "blocked" } });
  });

  it("serves the catalog and authenticates MCP with the printed API key", async () => {
    const credentials = JSON.parse(await readFile(credentialsFile(), "utf8"));
    const catalog = await fetch(credentials.mcpUrl.replace(/\/mcp$/, "/v1/capabilities"));
    expect(((await catalog.json()) as { capabilities: unknown[] }).capabilities).toHaveLength(6);
    const initialize = await fetch(credentials.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${credentials.apiKey}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } }),
    });
    expect(initialize.status).toBe(200);
    expect(((await initialize.json()) as any).result.protocolVersion).toBe("2025-06-18");
  });

  it("stops gracefully on SIGTERM", async () => {
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
