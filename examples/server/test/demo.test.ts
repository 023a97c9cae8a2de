import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The README's tour, as a new user runs it: the demo server from plain Node on the built
// packages over a fresh data directory, then the CRM sender and the webhook receiver with no
// environment variables (they find the credentials file the server wrote), the printed subscribe
// command, and an MCP tool call with the printed key. `pnpm test` builds first; `pnpm test:unit`
// alone can't run this (it needs dist/), so it says so instead of failing obscurely.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const built =
  existsSync(join(root, "packages/http-node/dist/index.js")) && existsSync(join(root, "packages/client/dist/node.js"));
if (!built) console.warn("skipping the demo tour: run `pnpm build` first (it runs the built packages)");
const run = promisify(execFile);

/** The environment of a new user: none of Vitrina's variables, no database. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith("VITRINA_") && name !== "DATABASE_URL" && name !== "PORT",
    ),
  );
  return { ...env, ...extra };
}

/** Collects a child's stdout; `waitFor(text)` resolves once it has appeared (the test timeout bounds the wait). */
function watchOutput(child: ChildProcess) {
  let output = "";
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    for (const w of waiters.filter((w) => output.includes(w.text))) w.resolve();
  });
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    exited,
    text: () => output,
    waitFor: (text: string) =>
      new Promise<void>((resolve, reject) => {
        if (output.includes(text)) return resolve();
        waiters.push({ text, resolve });
        void exited.then((code) => reject(new Error(`exited with ${code} before printing "${text}": ${output}`)));
      }),
  };
}

/** The printed `curl -X POST <url> -H "Authorization: …" -H "Content-Type: …" -d '<json>'`, taken apart. */
function parseCurl(output: string) {
  const match = /curl -X POST (\S+) -H "Authorization: ([^"]+)" -H "Content-Type: ([^"]+)" \\\n\s+-d '([^']+)'/.exec(
    output,
  );
  if (!match) throw new Error(`no subscribe command in: ${output}`);
  const [, url, authorization, contentType, body] = match;
  return {
    url: url!,
    headers: { authorization: authorization!, "content-type": contentType! },
    body: JSON.parse(body!) as { url: string; secret: string },
  };
}

describe.runIf(built)("the README's tour: demo server, crm-sender, webhook-receiver, MCP (built packages)", () => {
  let dir: string;
  let server: ChildProcess;
  let serverOutput: ReturnType<typeof watchOutput>;
  let receiver: ChildProcess | undefined;
  const credentialsFile = () => join(dir, ".vitrina", "demo-credentials.json");
  const credentials = async () => JSON.parse(await readFile(credentialsFile(), "utf8"));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "vitrina-demo-"));
    // Like `pnpm start` in a fresh clone: embedded PGlite under ./.vitrina, default settings
    // except the port (0: tests run beside other servers).
    server = spawn(process.execPath, [join(root, "examples/server/src/main.mjs")], {
      cwd: dir,
      env: cleanEnv({ PORT: "0" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    serverOutput = watchOutput(server);
    await serverOutput.waitFor("Stop with Ctrl-C");
  }, 120_000);

  afterAll(async () => {
    receiver?.kill("SIGTERM");
    server?.kill("SIGTERM");
    await serverOutput?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs the CRM sender as the README prints it: no variables, from the directory `pnpm start` ran in. */
  const sendLead = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [join(root, "examples/crm-sender/src/send-lead.mjs"), ...args], {
      cwd: dir,
      env: cleanEnv(),
    });
    return JSON.parse(stdout);
  };

  it("writes the credentials file by default, readable only by its owner", async () => {
    expect(Object.keys(await credentials()).sort()).toEqual(
      [
        "apiKey",
        "connectorId",
        "connectorSecret",
        "leadIntakeUrl",
        "mcpUrl",
        "webhookSecret",
        "webhooksUrl",
        "whatsappAppSecret",
        "whatsappPhoneNumberId",
        "whatsappVerifyToken",
        "whatsappWebhookUrl",
        "workspaceId",
      ].sort(),
    );
    expect(statSync(credentialsFile()).mode & 0o777).toBe(0o600);
  });

  it("accepts a signed lead from crm-sender without any variable set", async () => {
    expect(await sendLead("--phone", "+56955501234")).toMatchObject({
      accepted: true,
      duplicate: false,
      outbound: { status: "sent" },
    });
  });

  it("welcomes each crm-sender run without flags, as the README's tour repeats it (a fresh phone each run)", async () => {
    const [first, second] = [await sendLead(), await sendLead()];
    expect([first.outbound.status, second.outbound.status]).toEqual(["sent", "sent"]);
    expect(first.contact_id).not.toBe(second.contact_id);
  });

  it("blocks the first message for the demo's opted-out phone", async () => {
    expect(await sendLead("--phone", "+56900000000")).toMatchObject({
      accepted: true,
      outbound: { status: "blocked" },
    });
  });

  it("delivers conversation.started to the receiver subscribed with the printed command, and says when a resend is a duplicate", async () => {
    const curl = parseCurl(serverOutput.text());
    expect(curl.body.url).toBe("http://127.0.0.1:8788/");
    // The receiver takes its secret from the credentials file; port 0 because 8788 may be taken here.
    receiver = spawn(process.execPath, [join(root, "examples/webhook-receiver/src/server.mjs")], {
      cwd: dir,
      env: cleanEnv({ PORT: "0" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const receiverOutput = watchOutput(receiver);
    await receiverOutput.waitFor("listening on");
    const receiverPort = /localhost:(\d+)\//.exec(receiverOutput.text())![1];

    const subscribed = await fetch(curl.url, {
      method: "POST",
      headers: curl.headers,
      body: JSON.stringify({ ...curl.body, url: `http://127.0.0.1:${receiverPort}/` }),
    });
    expect(subscribed.status).toBe(201);
    const subscription = (await subscribed.json()) as { id: string };

    await sendLead("--phone", "+56955502222");
    await receiverOutput.waitFor(" conversation.started evt_");
    const eventId = /conversation\.started (evt_\S+)/.exec(receiverOutput.text())![1];

    const auth = { authorization: curl.headers.authorization };
    const deliveries = (await (await fetch(`${curl.url}/${subscription.id}/deliveries`, { headers: auth })).json()) as {
      data: Array<{ id: string }>;
    };
    const resent = await fetch(`${curl.url}/${subscription.id}/deliveries/${deliveries.data[0]!.id}/resend`, {
      method: "POST",
      headers: auth,
    });
    expect(resent.status).toBe(202);
    await receiverOutput.waitFor(`duplicate ${eventId}`);
  }, 60_000);

  it("answers an MCP tool call made with the printed API key", async () => {
    const { mcpUrl, apiKey } = await credentials();
    const call = (id: number, method: string, params: unknown) =>
      fetch(mcpUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${apiKey}`,
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const initialize = await call(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "0" },
    });
    expect(initialize.body.result.protocolVersion).toBe("2025-06-18");
    const searched = await call(2, "tools/call", { name: "query_catalog", arguments: { search: "Mirador" } });
    expect(searched.status).toBe(200);
    expect(searched.body.result.isError).toBeFalsy();
    expect(JSON.stringify(searched.body.result)).toContain("MIR-101");
  });

  it("prints the web console's URL, where one button signs in as the demo owner", async () => {
    const consoleUrl = /web console: +(\S+)/.exec(serverOutput.text())?.[1];
    expect(consoleUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console$/);
    const first = await fetch(consoleUrl!, { redirect: "manual" });
    expect(first.headers.get("location")).toBe("/console/integrations");
    const second = await fetch(new URL(first.headers.get("location")!, consoleUrl), { redirect: "manual" });
    expect(second.status).toBe(303);
    const signInUrl = new URL(second.headers.get("location")!, consoleUrl);
    expect(signInUrl.pathname).toBe("/console/sign-in");
    expect(await (await fetch(signInUrl)).text()).toContain("Sign in as demo-owner");
    const signedIn = await fetch(signInUrl, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(consoleUrl!).origin },
      body: "decision=sign-in",
    });
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    const integrations = await fetch(new URL(signedIn.headers.get("location")!, consoleUrl), { headers: { cookie } });
    expect(integrations.status).toBe(200);
    expect(await integrations.text()).toContain("Demo CRM");
  });

  it("names the port and the variable to change when the port is in use", async () => {
    const port = new URL((await credentials()).mcpUrl).port;
    const second = await run(process.execPath, [join(root, "examples/server/src/main.mjs"), "--memory"], {
      cwd: dir,
      env: cleanEnv({ PORT: port }),
    }).catch((e) => e);
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toMatch(new RegExp(`^port ${port} on 127\\.0\\.0\\.1 is already in use .*set PORT`));
    expect(second.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("stops gracefully on SIGTERM", async () => {
    server.kill("SIGTERM");
    expect(await serverOutput.exited).toBe(0);
  });
});

describe.runIf(built)("the tour after a restart over the same data directory (built packages)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "vitrina-demo-restart-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const startDemo = async () => {
    const child = spawn(process.execPath, [join(root, "examples/server/src/main.mjs")], {
      cwd: dir,
      env: cleanEnv({ PORT: "0" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = watchOutput(child);
    await output.waitFor("Stop with Ctrl-C");
    return { child, output };
  };

  it("says the receiver is subscribed already instead of printing the subscribe curl again", async () => {
    const first = await startDemo();
    const curl = parseCurl(first.output.text());
    expect(
      (await fetch(curl.url, { method: "POST", headers: curl.headers, body: JSON.stringify(curl.body) })).status,
    ).toBe(201);
    first.child.kill("SIGTERM");
    expect(await first.output.exited).toBe(0);

    const second = await startDemo();
    try {
      expect(second.output.text()).not.toContain("curl -X POST");
      expect(second.output.text()).toMatch(/Subscribed already: whs_\w+ \(from an earlier run/);
      const { webhooksUrl, apiKey } = JSON.parse(
        await readFile(join(dir, ".vitrina", "demo-credentials.json"), "utf8"),
      );
      const list = (await (await fetch(webhooksUrl, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as {
        data: unknown[];
      };
      expect(list.data).toHaveLength(1);
    } finally {
      second.child.kill("SIGTERM");
      await second.output.exited;
    }
  }, 120_000);
});

describe.runIf(built)("pnpm start (built packages)", () => {
  it("stops the server gracefully when pnpm itself gets SIGTERM (a process manager, `timeout`, docker stop)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vitrina-demo-pnpm-"));
    // Through `sh -c`, pnpm's SIGTERM ended the shell and the server ran on, orphaned, holding the port.
    const pnpm = spawn("pnpm", ["start"], {
      cwd: root,
      env: cleanEnv({ PORT: "0", VITRINA_DATA_DIR: dir }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = watchOutput(pnpm);
    try {
      await output.waitFor("Stop with Ctrl-C");
      const url = /listening on (\S+)/.exec(output.text())![1];
      pnpm.kill("SIGTERM");
      await output.exited;
      const answers = () =>
        fetch(`${url}/healthz`).then(
          () => true,
          () => false,
        );
      for (let i = 0; i < 100 && (await answers()); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await answers()).toBe(false);
      expect(existsSync(join(dir, "vitrina.lock"))).toBe(false); // shut down, not killed: the lock was released
    } finally {
      const lock = await readFile(join(dir, "vitrina.lock"), "utf8").catch(() => null);
      if (lock !== null) process.kill(JSON.parse(lock).pid, "SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
