// A webhook receiver in its own process: node:http answering 204 to every POST, as a receiver
// that acknowledges at once would. It runs apart from the worker under test so the two don't share
// an event loop or a core's time slices, and so each side's CPU per delivery can be read apart
// (the worker's from the bench process, the receiver's through ipc.mjs's cpu-mark / cpu-read).
// Besides ipc.mjs's protocol it answers "count" with { received, unverified } so far, and { expect: n }: it counts deliveries from zero, answers
// "armed", then { reached: n, unverified, firstReason } once n have arrived, so a drain is timed
// without polling it. Every delivery's signature is checked (signatureTally in ../outbox-setup.mjs).
// It still answers 204 to one that fails: a refusal would make the contender retry and the drain
// stall.
import { createServer } from "node:http";
import { signatureTally } from "../outbox-setup.mjs";
import { announce } from "./ipc.mjs";

let received = 0;
let expected = Infinity;
const signatures = signatureTally();

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    signatures.check(Buffer.concat(chunks).toString("utf8"), req.headers["vitrina-signature"]);
    res.statusCode = 204;
    res.end();
    if (++received === expected)
      process.send({ reached: received, unverified: signatures.unverified, firstReason: signatures.firstReason });
  });
});
server.keepAliveTimeout = 30_000;
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));

process.on("message", (message) => {
  if (message === "count") return void process.send({ received, unverified: signatures.unverified });
  if (typeof message?.expect !== "number") return;
  received = 0;
  signatures.reset();
  expected = message.expect;
  process.send("armed");
});
announce({ url: `http://127.0.0.1:${server.address().port}/hooks` });
