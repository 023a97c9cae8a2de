// @vitrina/client: lead signing per HMAC backend, and webhook verification against
// stripe-node's constructEvent (same t=…,v1=… scheme) on the same 1 KiB payload.
import { createHmac, timingSafeEqual, webcrypto } from "node:crypto";
import Stripe from "stripe";
import * as nodeEntry from "../packages/client/dist/node.js";
import * as portable from "../packages/client/dist/index.js";
import { opsPerSecond, opsPerSecondSync } from "./lib.mjs";

export const name = "@vitrina/client (1 KiB body)";

const secret = "conn_secret_7f1b2c3d";
const connectorId = "6f1c2d3e-0000-4000-8000-000000000001";
const envelope = { id: "evt_bench", type: "order.confirmed", created: "2025-01-01T00:00:00Z", data: { pad: "" } };
const skeleton = JSON.stringify(envelope);
envelope.data.pad = "x".repeat(1024 - skeleton.length);
const body = JSON.stringify(envelope);
if (new TextEncoder().encode(body).length !== 1024) throw new Error("bench body must be 1 KiB");

const ratio = (a, b) => `${(a / b).toFixed(2)}x`;

export async function run() {
  const timestamp = Date.now();
  const encoder = new TextEncoder();
  const key = await webcrypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const webCryptoSign = async (cryptoKey) => {
    const mac = await webcrypto.subtle.sign("HMAC", cryptoKey, encoder.encode(`${timestamp}.${body}`));
    return Buffer.from(mac).toString("hex");
  };

  const signNode = opsPerSecondSync(() => nodeEntry.signLead({ connectorId, secret, body, timestamp }));
  const signNoble = opsPerSecondSync(() => portable.signLead({ connectorId, secret, body, timestamp }));
  const signWebCrypto = await opsPerSecond(() => webCryptoSign(key));
  const signWebCryptoImport = await opsPerSecond(async () =>
    webCryptoSign(
      await webcrypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
        "sign",
      ]),
    ),
  );

  const t = Math.floor(Date.now() / 1000);
  const header = nodeEntry.signWebhook({ payload: body, secret, timestamp: t });
  const stripe = new Stripe("sk_test_x");
  // Sanity: all three accept the same delivery before we time them.
  stripe.webhooks.constructEvent(body, header, secret);
  nodeEntry.verifyWebhook({ payload: body, header, secret });
  const expected = Buffer.from(header.split("v1=")[1], "hex");
  const bare = () =>
    timingSafeEqual(createHmac("sha256", secret).update(`${t}.${body}`).digest(), expected) ||
    (() => {
      throw new Error("mismatch");
    })();

  // Interleave ours and stripe's twice and keep each one's best, so drift doesn't favour either.
  const ours = [],
    theirs = [];
  for (let round = 0; round < 2; round++) {
    ours.push(opsPerSecondSync(() => nodeEntry.verifyWebhook({ payload: body, header, secret })));
    theirs.push(opsPerSecondSync(() => stripe.webhooks.constructEvent(body, header, secret)));
  }
  const verifyOurs = Math.max(...ours);
  const verifyStripe = Math.max(...theirs);
  const verifyBare = opsPerSecondSync(bare);
  const verifyPortable = opsPerSecondSync(() => portable.verifyWebhook({ payload: body, header, secret }));

  return [
    { case: "signLead, node:crypto entry", value: signNode, unit: "ops/s" },
    {
      case: "signLead, portable @noble/hashes entry",
      value: signNoble,
      unit: "ops/s",
      note: `node is ${ratio(signNode, signNoble)} faster`,
    },
    {
      case: "WebCrypto subtle.sign (key imported once)",
      value: signWebCrypto,
      unit: "ops/s",
      note: `node entry ${ratio(signNode, signWebCrypto)}, noble ${ratio(signNoble, signWebCrypto)} of it`,
    },
    {
      case: "WebCrypto importKey + sign per call",
      value: signWebCryptoImport,
      unit: "ops/s",
      note: `node entry ${ratio(signNode, signWebCryptoImport)} of it`,
    },
    {
      case: "verifyWebhook, node entry",
      value: verifyOurs,
      unit: "verifications/s",
      note: `ours/stripe = ${ratio(verifyOurs, verifyStripe)}`,
    },
    { case: "stripe.webhooks.constructEvent", value: verifyStripe, unit: "verifications/s" },
    {
      case: "bare createHmac + timingSafeEqual (no parse)",
      value: verifyBare,
      unit: "verifications/s",
      note: "floor: no header parse, no JSON",
    },
    {
      case: "verifyWebhook, portable entry",
      value: verifyPortable,
      unit: "verifications/s",
      note: `node entry ${ratio(verifyOurs, verifyPortable)} faster`,
    },
  ];
}
