import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface GraphRequest {
  path: string;
  authorization: string | undefined;
  body: { to: string; type: string; template?: { name: string } } & Record<string, unknown>;
}

/**
 * A local stand-in for the WhatsApp Cloud API on 127.0.0.1:0: `POST /{version}/{phone number id}/messages`
 * answers as Meta does, `{ messaging_product, contacts, messages: [{ id: "wamid.…", message_status:
 * "accepted" }] }`, and every request is kept in `requests` with the id it was given.
 */
export async function startFakeGraphApi() {
  const requests: Array<GraphRequest & { wamid: string }> = [];
  let counter = 0;
  const readJson = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  };
  const server = createServer(async (req, res) => {
    const body = await readJson(req);
    if (req.method !== "POST" || !/^\/v\d+\.\d+\/[^/]+\/messages$/.test(req.url ?? "")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"unknown path"}}');
      return;
    }
    const wamid = `wamid.FAKE${String(++counter).padStart(6, "0")}`;
    requests.push({ path: req.url!, authorization: req.headers.authorization, body, wamid });
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        messaging_product: "whatsapp",
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id: wamid, message_status: "accepted" }],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
