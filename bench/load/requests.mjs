// What the load generator sends. A profile turns a request number into { method, path, headers, body },
// built inside the generator process so that its cost is counted as client CPU.
import { createHmac } from "node:crypto";
import { hubSignature, statusBatch, textBatch } from "../../examples/whatsapp-provider/src/provider.mjs";

function leadBody(run, i) {
  return JSON.stringify({
    event: "lead.created",
    source_lead_id: `bench-${run}-${i}`,
    contact: {
      phone_e164: `+569${String(10_000_000 + i).slice(-8)}`,
      name: "Bench Lead",
      email: `lead${i}@example.cl`,
    },
    context: { source: "bench", campaign_id: "load" },
    qualification: { monthly_income: 1_500_000 },
    whatsapp_consent: { granted: true, timestamp: "2026-01-01T00:00:00Z", source: "bench", purpose: "sales" },
    metadata: { pad: "x".repeat(600) },
  });
}

/** A GET of the server's URL: the cheapest request, for the bare fixed-200 server. */
function fixedProfile(target) {
  const path = new URL(target.url).pathname;
  return () => ({ method: "GET", path, headers: {}, body: undefined });
}

/** Distinct signed leads (a fresh source_lead_id, phone and email each time), as a connector sends them. */
function leadProfile(target) {
  const path = new URL(target.url).pathname;
  const run = `${Date.now()}-${process.pid}`;
  return (i) => {
    const body = leadBody(run, i);
    const timestamp = String(Date.now());
    return {
      method: "POST",
      path,
      headers: {
        "content-type": "application/json",
        "x-vitrina-connector-id": target.connectorId,
        "x-vitrina-timestamp": timestamp,
        "x-vitrina-signature": createHmac("sha256", target.secret).update(`${timestamp}.${body}`).digest("hex"),
      },
      body,
    };
  };
}

/** Request i: one JSON-RPC `method` call with `params`, POSTed to the target's path with `headers`. */
function jsonRpcProfile(target, headers, method, params) {
  const path = new URL(target.url).pathname;
  return (i) => ({
    method: "POST",
    path,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: i, method, params: params(i) }),
  });
}

/** MCP `tools/call` of the target's tool, one JSON-RPC message per POST, as a stateless client (or one session) sends it. */
const mcpProfile = (target) =>
  jsonRpcProfile(
    target,
    {
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${target.token}`,
      "mcp-protocol-version": "2025-06-18",
      ...(target.sessionId ? { "mcp-session-id": target.sessionId } : {}),
    },
    "tools/call",
    () => ({ name: target.tool, arguments: target.arguments }),
  );

/** A REST GET of the target's URL (path and query), with the bearer token. */
function restProfile(target) {
  const url = new URL(target.url);
  const path = `${url.pathname}${url.search}`;
  const headers = { authorization: `Bearer ${target.token}` };
  return () => ({ method: "GET", path, headers, body: undefined });
}

/** A2A `SendMessage` of the target's capability and arguments, one data part, as an A2A v1.0 client sends it. */
const a2aProfile = (target) =>
  jsonRpcProfile(target, { authorization: `Bearer ${target.token}`, "a2a-version": "1.0" }, "SendMessage", (i) => ({
    message: {
      messageId: `bench-${i}`,
      role: "ROLE_USER",
      parts: [{ data: { capability: target.capability, input: target.arguments }, mediaType: "application/json" }],
    },
  }));

/** How many people the inbound profile's texts come from: after the first pass, replies in open threads. */
const WHATSAPP_SENDERS = 1000;
const STATUS_CYCLE = ["sent", "delivered", "read"];

/**
 * A WhatsApp webhook POST as Meta sends it, signed with the target's app secret (X-Hub-Signature-256):
 * `batch(run, i)` builds request i's batch; every message and status id is new.
 */
function whatsappProfile(target, batch) {
  const path = new URL(target.url).pathname;
  const run = `${Date.now()}${process.pid}`;
  return (i) => {
    const body = JSON.stringify(batch(run, i));
    return {
      method: "POST",
      path,
      headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(body, target.appSecret) },
      body,
    };
  };
}

/** One inbound text per batch, from one of WHATSAPP_SENDERS people. */
const whatsappTextProfile = (target) =>
  whatsappProfile(target, (run, i) =>
    textBatch(target.phoneNumberId, {
      phoneE164: `+5697${String(i % WHATSAPP_SENDERS).padStart(7, "0")}`,
      text: `Hola, ¿sigue disponible el depto ${i}?`,
      id: `wamid.bench${run}x${i}`,
    }),
  );

/** `target.batchSize` statuses per batch (sent, delivered, read in turn), each for a message of its own. */
const whatsappStatusesProfile = (target) =>
  whatsappProfile(target, (run, i) =>
    statusBatch(
      target.phoneNumberId,
      Array.from({ length: target.batchSize }, (_, k) => ({
        id: `wamid.bench${run}x${i}x${k}`,
        status: STATUS_CYCLE[k % 3],
        phoneE164: `+5697${String(k).padStart(7, "0")}`,
      })),
    ),
  );

export const profiles = {
  fixed: fixedProfile,
  lead: leadProfile,
  mcp: mcpProfile,
  rest: restProfile,
  a2a: a2aProfile,
  "whatsapp-text": whatsappTextProfile,
  "whatsapp-statuses": whatsappStatusesProfile,
};

/** Every how many responses the generator reads the body and checks it (the rest it discards). */
export const BODY_CHECK_EVERY = 64;

/** `text` as JSON, or undefined. */
function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What a profile's 200 must say, checked on a sample of responses: a reason when it doesn't, null
 * when it does. A status code alone would let an error answered 200 pass as a fast success (MCP
 * answers JSON-RPC errors and failed tool calls with 200); checking every body would charge the
 * generator a JSON parse per request.
 */
export const bodyChecks = {
  lead(text) {
    return parsed(text)?.accepted === true ? null : `a lead was not accepted: ${text.slice(0, 200)}`;
  },
  mcp(text) {
    const message = parsed(text);
    if (message?.error !== undefined) return `JSON-RPC error: ${JSON.stringify(message.error).slice(0, 200)}`;
    if (message?.result === undefined || message.result.isError === true)
      return `the tool call failed: ${text.slice(0, 200)}`;
    return null;
  },
  rest(text) {
    return parsed(text)?.output !== undefined ? null : `no output in the answer: ${text.slice(0, 200)}`;
  },
  a2a(text) {
    const data = parsed(text)?.result?.message?.parts?.[0]?.data;
    return data !== undefined ? null : `no data part in the answer: ${text.slice(0, 200)}`;
  },
  "whatsapp-text": whatsappRecorded,
  "whatsapp-statuses": whatsappRecorded,
};

/** A webhook batch the route recorded whole: `recorded: true` and no item skipped. */
function whatsappRecorded(text) {
  const answer = parsed(text);
  return answer?.recorded === true && answer.skipped === 0
    ? null
    : `a batch was not recorded whole: ${text.slice(0, 200)}`;
}
