import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@vitrina/core";
import { serve } from "@vitrina/http-node";
import { signLead } from "@vitrina/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM without types, run from source like main.mjs does
import { createDemo, demoCredentials, demoWebhookSecret, writeDemoCredentials } from "../src/demo.mjs";
import { postWebhook, statusBatch } from "../../whatsapp-provider/src/provider.mjs";
import { startFakeGraphApi } from "../../../packages/http-node/test/support/fake-graph-api.js";

// The demo's WhatsApp channel as main.mjs wires it: receive-only with generated secrets kept in the
// credentials file, or from WHATSAPP_* variables through the Cloud API; and the demo-only route the
// tour finds a sent message's provider id at.
let dir = "";
let running: Array<{ close(): Promise<void> }> = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "vitrina-demo-whatsapp-"));
});
afterEach(async () => {
  for (const r of running.reverse()) await r.close();
  running = [];
  await rm(dir, { recursive: true, force: true });
});

/** createDemo over memory, served, with its credentials written as main.mjs writes them. */
async function startDemo(extraEnv: Record<string, string> = {}) {
  const credentialsPath = join(dir, "demo-credentials.json");
  const env = { VITRINA_STORAGE: "memory", VITRINA_DEMO_CREDENTIALS: credentialsPath, ...extraEnv };
  const demo = await createDemo({ env, logger: silentLogger, memory: true, credentialsPath });
  const server = await serve(demo.handler, { port: 0, handleSignals: false });
  running.push({ close: () => server.close().then(() => demo.vitrina.close()) });
  const credentials = demoCredentials(demo, server.url, await demoWebhookSecret(credentialsPath));
  await writeDemoCredentials(credentialsPath, credentials);
  const sendLead = async (phone: string) => {
    const body = JSON.stringify({
      event: "lead.created",
      source_lead_id: `t-${phone}-${Date.now()}`,
      contact: { phone_e164: phone, name: "Ana" },
      whatsapp_consent: { granted: true, timestamp: new Date().toISOString(), source: "form", purpose: "sales" },
    });
    const { headers } = signLead({ connectorId: credentials.connectorId, secret: credentials.connectorSecret, body });
    const response = await fetch(credentials.leadIntakeUrl, { method: "POST", headers, body });
    return (await response.json()) as { outbound: { status: string } };
  };
  return { demo, server, credentials, credentialsPath, sendLead };
}

describe("the demo's WhatsApp channel", () => {
  it("is receive-only without WHATSAPP_* variables, and writes its webhook URL, phone number id and secrets to the credentials file", async () => {
    const { demo, server, credentials, credentialsPath, sendLead } = await startDemo();
    expect(demo.whatsapp.channel).toMatchObject({
      phone_number_id: "demo-phone-number-id",
      sends_through: "messaging_transport",
    });
    const file = JSON.parse(await readFile(credentialsPath, "utf8"));
    expect(file).toMatchObject({
      whatsappWebhookUrl: `${server.url}/functions/v1/whatsapp-webhook`,
      whatsappPhoneNumberId: "demo-phone-number-id",
      whatsappAppSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
      whatsappVerifyToken: expect.stringMatching(/^vtr_wv_/),
    });
    // Meta's handshake with the verify token the file holds.
    const handshake = await fetch(
      `${file.whatsappWebhookUrl}?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${encodeURIComponent(file.whatsappVerifyToken)}`,
    );
    expect([handshake.status, await handshake.text()]).toEqual([200, "1158201444"]);

    // Sends still go through the log transport; the demo-only route names the provider id…
    expect((await sendLead("+56955507001")).outbound.status).toBe("sent");
    const sentUrl = `${server.url}/demo/whatsapp/sent?to=${encodeURIComponent("+56955507001")}`;
    expect((await fetch(sentUrl)).status).toBe(401);
    const listed = (await (
      await fetch(sentUrl, { headers: { authorization: `Bearer ${credentials.apiKey}` } })
    ).json()) as { data: Array<{ provider_message_id: string; template: string }> };
    expect(listed.data).toEqual([
      expect.objectContaining({ provider_message_id: expect.stringMatching(/^demo-/), template: "vitrina_welcome" }),
    ]);
    // …and a status signed with the file's app secret for it is recorded.
    const report = await postWebhook(
      file.whatsappWebhookUrl,
      file.whatsappAppSecret,
      statusBatch("demo-phone-number-id", [
        { id: listed.data[0]!.provider_message_id, status: "delivered", phoneE164: "+56955507001" },
      ]),
    );
    expect(report).toMatchObject({ status: 200, body: { statuses: { recorded: 1, unknownMessages: 0 } } });
  });

  it("keeps the generated app secret and verify token across a restart (the credentials file holds them)", async () => {
    const first = await startDemo();
    await running.pop()!.close();
    const second = await startDemo();
    expect(second.credentials.whatsappAppSecret).toBe(first.credentials.whatsappAppSecret);
    expect(second.credentials.whatsappVerifyToken).toBe(first.credentials.whatsappVerifyToken);
    expect(second.demo.whatsapp.generated).toEqual({ appSecret: false, verifyToken: false });
  });

  it("sends through the Cloud API at WHATSAPP_GRAPH_URL with WHATSAPP_ACCESS_TOKEN and WHATSAPP_PHONE_NUMBER_ID", async () => {
    const graph = await startFakeGraphApi();
    running.push(graph);
    const { demo, credentials, sendLead } = await startDemo({
      WHATSAPP_ACCESS_TOKEN: "EAAG-demo-token",
      WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
      WHATSAPP_APP_SECRET: "the-meta-app-secret",
      WHATSAPP_VERIFY_TOKEN: "a-verify-token-of-mine",
      WHATSAPP_GRAPH_URL: graph.url,
    });
    expect(demo.whatsapp.channel).toMatchObject({ phone_number_id: "106540352242922", sends_through: "cloud_api" });
    expect(demo.messagingName).toMatch(/Cloud API/);
    expect(credentials).toMatchObject({
      whatsappPhoneNumberId: "106540352242922",
      whatsappAppSecret: "the-meta-app-secret",
      whatsappVerifyToken: "a-verify-token-of-mine",
    });
    expect((await sendLead("+56955507002")).outbound.status).toBe("queued");
    expect(graph.requests).toEqual([
      expect.objectContaining({
        path: "/v21.0/106540352242922/messages",
        authorization: "Bearer EAAG-demo-token",
        body: expect.objectContaining({ to: "56955507002" }),
      }),
    ]);
  });
});
