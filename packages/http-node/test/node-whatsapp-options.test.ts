import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fetchGraphPost, whatsAppCloudTransport, type GraphPost } from "@vitrina/core/whatsapp";
import { nodeWhatsAppOptions } from "../src/network/node-whatsapp-options.js";

const message = {
  channel: "whatsapp" as const,
  to: "+56912345678",
  template: { name: "vitrina_welcome", language: "es", bodyParameters: ["María"] },
};

describe("nodeWhatsAppOptions: the Cloud API's POSTs on undici's request API", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  async function graph(answer: (req: IncomingMessage, body: string, res: import("node:http").ServerResponse) => void) {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => answer(req, Buffer.concat(chunks).toString("utf8"), res));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const transportOn = (baseUrl: string, post: GraphPost, timeoutMs?: number) =>
    whatsAppCloudTransport({
      accessToken: "EAAtoken",
      phoneNumberId: "1234567890",
      baseUrl,
      post,
      ...(timeoutMs !== undefined && { timeoutMs }),
    });

  it("sends what the fetch path sends and reads the message id the same way", async () => {
    const seen: Array<{
      path: string | undefined;
      authorization: string | undefined;
      type: string | undefined;
      body: unknown;
    }> = [];
    const baseUrl = await graph((req, body, res) => {
      seen.push({
        path: req.url,
        authorization: req.headers.authorization,
        type: req.headers["content-type"],
        body: JSON.parse(body),
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ messaging_product: "whatsapp", messages: [{ id: `wamid.${seen.length}` }] }));
    });
    expect(await transportOn(baseUrl, nodeWhatsAppOptions().post).send(message)).toEqual({
      status: "queued",
      providerMessageId: "wamid.1",
    });
    expect(await transportOn(baseUrl, fetchGraphPost()).send(message)).toEqual({
      status: "queued",
      providerMessageId: "wamid.2",
    });
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]).toMatchObject({ path: "/v21.0/1234567890/messages", authorization: "Bearer EAAtoken" });
  });

  it("turns the provider's error, and an error page that isn't JSON, into MessagingErrors", async () => {
    let answer = 0;
    const baseUrl = await graph((_req, _body, res) => {
      if (++answer === 1) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: { message: "(#132001) Template name does not exist in the translation", code: 132001 },
          }),
        );
      } else {
        res.writeHead(502, { "content-type": "text/html" }).end("<html>Bad gateway</html>");
      }
    });
    const transport = transportOn(baseUrl, nodeWhatsAppOptions().post);
    await expect(transport.send(message)).rejects.toMatchObject({
      code: "messaging_failed",
      // The provider's own words are quoted after Vitrina's plain ones (graph-error.ts).
      message: expect.stringMatching(
        /^WhatsApp Cloud API error 400 \(code 132001\): .*\(#132001\) Template name does not exist in the translation/,
      ),
    });
    await expect(transport.send(message)).rejects.toMatchObject({
      code: "messaging_failed",
      message: "WhatsApp Cloud API error 502: HTTP 502",
    });
  });

  it("gives up on a provider that never answers once the send's timeout passes", async () => {
    const baseUrl = await graph(() => {}); // reads the request, never answers
    await expect(transportOn(baseUrl, nodeWhatsAppOptions().post, 200).send(message)).rejects.toMatchObject({
      code: "messaging_failed",
      message: "WhatsApp Cloud API unreachable: no answer within 200 ms",
    });
  });

  it("stops reading an endless answer after 64 KiB and drops the connection", async () => {
    let closed: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const baseUrl = await graph((_req, _body, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.on("close", () => closed());
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    });
    await expect(transportOn(baseUrl, nodeWhatsAppOptions().post).send(message)).rejects.toMatchObject({
      code: "messaging_failed",
      message: "WhatsApp Cloud API answered without a message id",
    });
    await connectionClosed;
  });
});
