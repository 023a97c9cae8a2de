import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { freshPGlite } from "../../../adapter-postgres/test/support.js";
import { migrate, postgresStorage } from "@vitrina/adapter-postgres";
import { vitrinaConsole, type ConsoleOptions } from "@vitrina/console";
import { createVitrina, silentLogger, type MessagingTransport } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { nodeWebhookOptions, serveVitrina } from "@vitrina/http-node";

export const OWNER = "owner@example.com";
export const MEMBER = "mia@example.com";

/**
 * The embedder's sign-in in the browser tests: a page with one button per user (their own login
 * page, in real life), so one server serves an owner and a member.
 */
function pickUserSignIn(workspaceId: () => string): ConsoleOptions {
  return {
    productName: "Vitrina",
    async signIn(request) {
      if (request.method === "POST") {
        const user = new URLSearchParams(await request.text()).get("user");
        return user === OWNER || user === MEMBER ? { userId: user, workspaceId: workspaceId() } : null;
      }
      const url = new URL(request.url);
      const action = `/console/sign-in?${url.searchParams}`;
      return new Response(
        `<!doctype html><html lang="en"><head><title>Sign in</title></head><body><main><h1>Sign in</h1>
<form method="post" action="${action}"><button name="user" value="${OWNER}">Sign in as owner</button>
<button name="user" value="${MEMBER}">Sign in as member</button></form></main></body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      );
    },
  };
}

/** A local webhook receiver that records every request and answers 200 with a short body. */
export async function startReceiver() {
  const received: Array<{ headers: IncomingMessage["headers"]; body: string }> = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200, { "content-type": "text/plain" }).end("received by the test receiver");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A real server (HTTP + outbox worker) on embedded PGlite with the console on, one workspace, an owner and a member. */
export async function startConsoleServer(options: { messaging?: MessagingTransport } = {}) {
  const db = await freshPGlite();
  await migrate(db, { schema: "vitrina" });
  const storage = postgresStorage(db, { schema: "vitrina" });
  let workspaceId = "";
  const vitrina = createVitrina({
    storage,
    messaging: options.messaging ?? logMessagingTransport(silentLogger),
    secretBox: Buffer.alloc(32, 9).toString("base64"),
    logger: silentLogger,
    webhooks: nodeWebhookOptions({ allowInsecureLoopback: true }),
    console: vitrinaConsole(pickUserSignIn(() => workspaceId)),
  });
  const workspace = await vitrina.workspaces.create({ name: "Inmobiliaria Andes", ownerUserId: OWNER });
  workspaceId = workspace.id;
  await vitrina.workspaces.setMember({ userId: OWNER }, { workspaceId, userId: MEMBER, role: "member" });
  const server = await serveVitrina(vitrina, { port: 0, host: "127.0.0.1", handleSignals: false });
  return {
    url: server.url,
    vitrina,
    workspaceId,
    async close() {
      await server.close();
      await vitrina.close();
    },
  };
}
