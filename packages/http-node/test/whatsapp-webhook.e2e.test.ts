import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends, openTestStorage } from "../../adapter-postgres/test/support.js";
import {
  postWebhook,
  statusBatch,
  textBatch,
  waIdOf,
  type StatusReportInput,
} from "../../../examples/whatsapp-provider/src/provider.mjs";
import { startFakeGraphApi } from "./support/fake-graph-api.js";
import { sampleLead, startLeadHarness, type LeadHarness } from "./support/lead-harness.js";

// Both ways over real sockets: Vitrina sends a lead's first message to a local stand-in for the
// Graph API, which answers `accepted` with a wamid; the provider's signed status webhooks then come
// back to Vitrina's webhook route, and the lead's outbound and its thread copy follow them.
const PHONE_NUMBER_ID = "106540352242922";
const APP_SECRET = "meta-app-secret-for-tests";
const ACCESS_TOKEN = "EAAG-test-access-token";
const QUEUED_REASON = "accepted by the messaging provider; its delivery report comes by webhook";

const storages: Array<[string, () => Promise<Storage>]> = [
  ["memory", async () => memoryStorage()],
  ...backends.map((backend): [string, () => Promise<Storage>] => [
    backend,
    async () => (await openTestStorage(backend)).storage,
  ]),
];

describe.each(storages)("WhatsApp both ways over HTTP on %s (Graph API stand-in → webhook route)", (_name, open) => {
  let h: LeadHarness;
  let graph: Awaited<ReturnType<typeof startFakeGraphApi>>;
  let webhookUrl: string;

  beforeEach(async () => {
    graph = await startFakeGraphApi();
    h = await startLeadHarness({ storage: await open() });
    await h.vitrina.whatsapp.channels.put({
      workspaceId: h.workspace.id,
      phoneNumberId: PHONE_NUMBER_ID,
      accessToken: ACCESS_TOKEN,
      appSecret: APP_SECRET,
      graphBaseUrl: graph.url,
    });
    webhookUrl = new URL(h.vitrina.whatsapp.webhookPath, h.url).href;
  });
  afterEach(async () => {
    await h.close();
    await graph.close();
  });

  const report = (reports: StatusReportInput[]) =>
    postWebhook(webhookUrl, APP_SECRET, statusBatch(PHONE_NUMBER_ID, reports));
  /** The lead's first message as a resend of the lead shows it. */
  const outboundOf = async (lead: unknown) => (await h.send(lead)).json.outbound;

  it("sends the first message through the Graph API, queued, then sent, delivered and read as signed statuses arrive", async () => {
    const lead = sampleLead();
    const phone = lead.contact.phone_e164;
    const first = await h.send(lead);
    expect(first.status).toBe(200);
    expect(first.json.outbound).toEqual({ status: "queued", reason: QUEUED_REASON });
    expect(graph.requests).toHaveLength(1);
    const [request] = graph.requests;
    expect(request).toMatchObject({
      path: `/v21.0/${PHONE_NUMBER_ID}/messages`,
      authorization: `Bearer ${ACCESS_TOKEN}`,
      body: {
        messaging_product: "whatsapp",
        to: waIdOf(phone),
        type: "template",
        template: { name: "vitrina_welcome" },
      },
    });
    const wamid = request!.wamid;

    for (const status of ["sent", "delivered", "read"] as const) {
      const answer = await report([{ id: wamid, status, phoneE164: phone }]);
      expect(answer).toMatchObject({
        status: 200,
        body: { recorded: true, statuses: { recorded: 1, unknownMessages: 0 } },
      });
      expect(await outboundOf(lead)).toEqual({ status, reason: null });
    }
    // A redelivered `delivered` (Meta delivers at least once) never moves the message back.
    expect((await report([{ id: wamid, status: "delivered", phoneE164: phone }])).status).toBe(200);
    expect(await outboundOf(lead)).toEqual({ status: "read", reason: null });

    const [outbound] = await h.storage.outbound.listByWorkspace(h.workspace.id);
    expect(outbound).toMatchObject({ status: "queued", providerMessageId: wamid, delivery: { status: "read" } });
    expect(outbound!.delivery).toMatchObject({
      sentAt: expect.any(String),
      deliveredAt: expect.any(String),
      readAt: expect.any(String),
    });
    // The thread's copy of the first message shows the same delivery.
    const copy = await h.storage.messages.findByProviderId(h.workspace.id, wamid);
    expect(copy).toMatchObject({ providerMessageId: wamid, delivery: { status: "read" } });
    expect(graph.requests).toHaveLength(1);
  });

  it("records the person's reply in the lead's thread", async () => {
    const lead = sampleLead();
    const phone = lead.contact.phone_e164;
    const { json } = await h.send(lead);
    const reply = await postWebhook(
      webhookUrl,
      APP_SECRET,
      textBatch(PHONE_NUMBER_ID, { phoneE164: phone, text: "Hola, ¿sigue disponible?" }),
    );
    expect(reply).toMatchObject({ status: 200, body: { messages: { recorded: 1, duplicates: 0 }, optOuts: 0 } });
    const wamid = graph.requests[0]!.wamid;
    const copy = await h.storage.messages.findByProviderId(h.workspace.id, wamid);
    const thread = await h.storage.messages.listByConversation(copy!.conversationId, { limit: 10 });
    expect(thread.map((m) => [m.sender, m.content])).toEqual(
      expect.arrayContaining([["contact", "Hola, ¿sigue disponible?"]]),
    );
    expect(thread).toHaveLength(2);
    expect((await h.storage.contacts.get(h.workspace.id, json.contact_id))?.whatsappOptedOutAt).toBeNull();
  });

  it("opts the contact out on a failed status with 131050, so the next lead with consent is blocked", async () => {
    const lead = sampleLead();
    const phone = lead.contact.phone_e164;
    await h.send(lead);
    const wamid = graph.requests[0]!.wamid;
    const failed = await report([
      {
        id: wamid,
        status: "failed",
        phoneE164: phone,
        error: { code: 131050, title: "User has chosen to stop receiving marketing messages" },
      },
    ]);
    expect(failed).toMatchObject({ status: 200, body: { statuses: { recorded: 1 }, optOuts: 1 } });
    const outbound = await outboundOf(lead);
    expect(outbound.status).toBe("failed");
    expect(outbound.reason).toEqual(expect.any(String));

    const next = await h.send(sampleLead({ contact: { phone_e164: phone, name: "María Pérez" } }));
    expect(next.status).toBe(200);
    expect(next.json.outbound).toEqual({
      status: "blocked",
      reason: expect.stringMatching(/^contact opted out of WhatsApp at /),
    });
    expect(graph.requests).toHaveLength(1); // nothing more went to the provider
  });

  it("answers 401 to a status signed with another secret and records nothing", async () => {
    const lead = sampleLead();
    await h.send(lead);
    const wamid = graph.requests[0]!.wamid;
    const forged = await postWebhook(
      webhookUrl,
      "not-the-app-secret",
      statusBatch(PHONE_NUMBER_ID, [{ id: wamid, status: "read", phoneE164: lead.contact.phone_e164 }]),
    );
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe("invalid_signature");
    expect(await outboundOf(lead)).toEqual({ status: "queued", reason: QUEUED_REASON });
  });
});
