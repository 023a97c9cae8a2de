// A stand-in for the WhatsApp Cloud API in its own process, as the deployed benches send to it:
// `POST /{version}/{phone number id}/messages` answers 200 with a new `wamid` as Meta does; anything
// else 404. It reads and parses every body (a real API does), counts the sends, and answers
// { sends } to "count" over IPC. Apart from the server under test, so its CPU is not counted as
// the server's.
import { createServer } from "node:http";
import { announce } from "./ipc.mjs";

const MESSAGES_PATH = /^\/v\d+\.\d+\/[^/]+\/messages$/;
let sends = 0;

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    if (req.method !== "POST" || !MESSAGES_PATH.test(req.url ?? "")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"unknown path"}}');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const wamid = `wamid.BENCH${String(++sends).padStart(9, "0")}`;
    const answer = JSON.stringify({
      messaging_product: "whatsapp",
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id: wamid, message_status: "accepted" }],
    });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) }).end(answer);
  });
});
server.keepAliveTimeout = 30_000;
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
process.on("message", (message) => {
  if (message === "count") process.send({ sends });
});
announce({ url: `http://127.0.0.1:${server.address().port}` });
