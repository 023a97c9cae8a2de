import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { RESPONSE_BODY_PREFIX_BYTES } from "../../src/webhooks/post-webhook.js";
import { backends, openTestStorage } from "../../../adapter-postgres/test/support.js";
import { startWebhookHarness } from "../support/webhook-harness.js";

/** What each path of the receiver answers: a failing service, a huge page, bytes no database stores, silence. */
const answers: Record<string, (res: import("node:http").ServerResponse) => void> = {
  "/fail": (res) => res.writeHead(500, { "content-type": "text/plain" }).end("upstream exploded: database is down"),
  "/huge": (res) => res.writeHead(200).end("é".repeat(100) + "x".repeat(200_000)),
  "/hostile": (res) =>
    res.writeHead(502).end(Buffer.concat([Buffer.from("a\u0000b"), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from("c")])),
  "/empty": (res) => res.writeHead(204).end(),
  "/hang": () => {},
};

describe.each(["memory", ...backends] as const)("delivery history keeps the start of each answer (%s)", (backend) => {
  let server: Server;
  let receiver = "";
  let storage: Storage;
  let h: Awaited<ReturnType<typeof startWebhookHarness>>;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => answers[req.url ?? ""]?.(res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    receiver = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    storage = backend === "memory" ? memoryStorage() : (await openTestStorage(backend)).storage;
    h = await startWebhookHarness({ storage, webhooks: { allowInsecureLoopback: true, timeoutMs: 500 } });
  });
  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await storage.close();
  });

  async function attemptAt(path: string) {
    const subscription = await h.subscribe(`${receiver}${path}`);
    await h.quote();
    await h.vitrina.outbox.dispatcher.runOnce("w");
    const [delivery] = (await h.api("GET", `/v1/webhooks/${subscription}/deliveries`)).json.data;
    // Later events of the harness must not reach this path again.
    await h.api("DELETE", `/v1/webhooks/${subscription}`);
    return delivery.attempts[0];
  }

  it("shows what a failing receiver said", async () => {
    expect(await attemptAt("/fail")).toMatchObject({
      status_code: 500,
      error: "HTTP 500",
      response_body_prefix: "upstream exploded: database is down",
    });
  });

  it("keeps exactly the first 1 KiB of a huge answer, and reads no further than before", async () => {
    const attempt = await attemptAt("/huge");
    expect(RESPONSE_BODY_PREFIX_BYTES).toBe(1024);
    // 100 two-byte characters, then single-byte ones up to 1024 bytes.
    expect(attempt.response_body_prefix).toBe("é".repeat(100) + "x".repeat(1024 - 200));
  });

  it("stores U+0000 and invalid UTF-8 as U+FFFD instead of failing the write", async () => {
    const attempt = await attemptAt("/hostile");
    expect(attempt.status_code).toBe(502);
    expect(attempt.response_body_prefix).toBe("a\uFFFDb\uFFFD\uFFFD\uFFFDc");
  });

  it("keeps an empty answer as empty, and no answer as null", async () => {
    expect((await attemptAt("/empty")).response_body_prefix).toBe("");
    expect(await attemptAt("/hang")).toMatchObject({ status_code: null, response_body_prefix: null });
  });
});
