#!/usr/bin/env node
// Receives Vitrina webhooks on node:http: verifies them with @vitrina/client, answers a
// redelivery of an event id already seen without handling it again (and says so), and prints
// each verified event. Secret: VITRINA_WEBHOOK_SECRET, else the demo's credentials file.
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { createWebhookReceiver } from "@vitrina/client";
import { findDemoCredentials } from "../../demo-credentials.mjs";

const port = Number(process.env.PORT ?? 8788);
const secret = process.env.VITRINA_WEBHOOK_SECRET ?? findDemoCredentials()?.credentials.webhookSecret;
if (!secret) {
  console.error(
    "no secret: set VITRINA_WEBHOOK_SECRET to the secret of your webhook subscription, or start the demo server first (pnpm start writes it to .vitrina/demo-credentials.json)",
  );
  process.exit(2);
}

// In memory for the demo; a real receiver keeps ids in its database so restarts don't forget.
const seen = new Set();
function isDuplicate(id) {
  if (!seen.has(id)) {
    seen.add(id);
    return false;
  }
  // Delivery is at least once, and "resend" sends the same event id again: answer 200 (so the
  // sender stops) without handling it twice, and say so, or a resend looks like it did nothing.
  console.log(`duplicate ${id}: already handled, answered 200 without handling it again (a resend or a retry)`);
  return true;
}

const handle = createWebhookReceiver({
  secret: secret.split(","), // comma-separated while rotating: old,new
  isDuplicate,
  onEvent: (event) => console.log(`${event.created} ${event.type} ${event.id}`, JSON.stringify(event.data)),
  onError: (error, event) => console.error(`event ${event?.id ?? "?"} failed:`, error),
});

/** node:http → fetch Request; the receiver reads (and caps) the body stream itself. */
function toRequest(req) {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, item);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? Readable.toWeb(req) : undefined,
    duplex: "half",
  });
}

const server = createServer(async (req, res) => {
  try {
    const response = await handle(toRequest(req));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    console.error(error);
    res.writeHead(500).end();
  }
});

server.once("error", (error) => {
  if (error.code !== "EADDRINUSE") throw error;
  console.error(
    `port ${port} is already in use (another receiver still running?): stop it, or set PORT to a free port and subscribe that URL instead`,
  );
  process.exit(1);
});
server.listen(port, () => {
  console.log(`listening on http://localhost:${server.address().port}/ (POST Vitrina webhooks here)`);
});
