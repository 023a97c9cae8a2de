import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RESPONSE_BODY_PREFIX_BYTES } from "@vitrina/core/webhooks";
import { pinnedSender } from "../src/network/pinned-sender.js";

// What pinnedSender keeps of an answer's body. The hostile receivers (webhooks.hostile.test.ts)
// cover the limit on a huge body and the deadline on a slow one.
let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function receiver(listener: RequestListener): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.once("end", () => listener(req, res));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

const send = pinnedSender({ allowInsecureLoopback: true, allowPrivateNetworks: false });
const post = (url: string) =>
  send({ url, headers: { "content-type": "application/json" }, body: "{}", signal: new AbortController().signal });

describe("pinnedSender's answer", () => {
  it("has an empty head for a 204", async () => {
    const url = await receiver((_req, res) => {
      res.statusCode = 204;
      res.end();
    });
    const answer = await post(url);
    expect(answer.status).toBe(204);
    expect(answer.head.byteLength).toBe(0);
  });

  it("keeps the first bytes of a body sent in several chunks, up to the prefix the history stores", async () => {
    const text = "abcdefghij".repeat(300);
    const url = await receiver((_req, res) => {
      res.statusCode = 500;
      res.write(text.slice(0, 700));
      setImmediate(() => res.end(text.slice(700)));
    });
    const answer = await post(url);
    expect(answer.status).toBe(500);
    expect(Buffer.from(answer.head).toString("utf8")).toBe(text.slice(0, RESPONSE_BODY_PREFIX_BYTES));
  });

  it("rejects when the receiver drops the connection before the body it announced ended", async () => {
    const url = await receiver((_req, res) => {
      res.writeHead(200, { "content-length": "5000" });
      res.write("only part of it", () => res.socket?.destroy());
    });
    await expect(post(url)).rejects.toThrow();
  });
});
