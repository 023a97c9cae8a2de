#!/usr/bin/env node
// Receives Vitrina webhooks on node:http: verifies them with @vitrina/client, drops redeliveries
// of an event id already seen, and prints each verified event.
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { createWebhookReceiver } from "@vitrina/client";

const secret = process.env.VITRINA_WEBHOOK_SECRET;
if (!secret) {
  console.error("set VITRINA_WEBHOOK_SECRET to the secret of your webhook subscription");
  process.exit(2);
}

// In memory for the demo; a real receiver keeps ids in its database so restarts don't forget.
const seen = new Set();
const handle = createWebhookReceiver({
  secret: secret.split(","), // comma-separated while rotating: old,new
  isDuplicate: (id) => seen.has(id) || (seen.add(id), false),
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
  return new Request(url, { method: req.method, headers, body: hasBody ? Readable.toWeb(req) : undefined, duplex: "half" });
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

server.listen(Number(process.env.PORT ?? 8788), () => {
  console.log(`listening on http://localhost:${server.address().port}/ (POST Vitrina webhooks here)`);
});
