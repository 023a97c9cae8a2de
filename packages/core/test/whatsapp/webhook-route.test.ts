import { describe, expect, it } from "vitest";
import { escapeNonAscii } from "@vitrina/core/whatsapp";
import { VERIFY_TOKEN, WEBHOOK_URL, whatsAppHarness } from "./support.js";

const handshake = (query: string) => new Request(`${WEBHOOK_URL}?${query}`);

describe("the WhatsApp webhook handshake (GET)", () => {
  it("answers the raw hub.challenge for subscribe with a channel's verify token, 403 otherwise", async () => {
    const h = await whatsAppHarness();
    const ok = await h.vitrina.handler(
      handshake(`hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${VERIFY_TOKEN}`),
    );
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("1158201444");
    for (const query of [
      `hub.mode=subscribe&hub.challenge=1&hub.verify_token=wrong-token-value`,
      `hub.mode=unsubscribe&hub.challenge=1&hub.verify_token=${VERIFY_TOKEN}`,
      `hub.challenge=1&hub.verify_token=${VERIFY_TOKEN}`,
      `hub.mode=subscribe&hub.challenge=1`,
      `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}`,
    ]) {
      const refused = await h.vitrina.handler(handshake(query));
      expect(refused.status, query).toBe(403);
    }
    expect(h.logs.filter((l) => l.message === "WhatsApp webhook handshake refused")).toHaveLength(5);
    // The token never reaches the log.
    expect(JSON.stringify(h.logs)).not.toContain(VERIFY_TOKEN);
  });
});

describe("the WhatsApp webhook signature (POST)", () => {
  it("records a correctly signed batch and refuses a missing, malformed or wrong signature with 401, writing nothing", async () => {
    const h = await whatsAppHarness();
    const body = JSON.stringify(h.meta.batch({ messages: [h.meta.text("56911110001", "Hola")] }));
    const wrong = await h.meta.sign(body, "another-apps-secret-000");
    for (const headers of [
      { "x-hub-signature-256": wrong },
      { "x-hub-signature-256": "sha256=zz" },
      { "x-hub-signature-256": (await h.meta.sign(body)).replace("sha256=", "sha1=") },
    ]) {
      const response = await h.post(body, headers);
      expect(response.status).toBe(401);
      expect(response.json.error.code).toMatch(/invalid_signature|missing_signature_headers/);
    }
    const unsigned = await h.vitrina.handler(
      new Request(WEBHOOK_URL, { method: "POST", headers: { "content-type": "application/json" }, body }),
    );
    expect(unsigned.status).toBe(401);
    expect(await h.contactByPhone("+56911110001")).toBeNull();
    expect(h.logs.filter((l) => l.message.startsWith("WhatsApp webhook refused"))).toHaveLength(4);

    const accepted = await h.post(body);
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ recorded: true, messages: { recorded: 1, duplicates: 0 } });
    expect(await h.contactByPhone("+56911110001")).not.toBeNull();
  });

  it("accepts a non-ASCII body signed over its raw bytes, or over its escaped-unicode form", async () => {
    const h = await whatsAppHarness();
    const raw = JSON.stringify(h.meta.batch({ messages: [h.meta.text("56911110002", "J'ai mangé des pâtes 🍝")] }));
    expect((await h.post(raw)).status).toBe(200);
    const other = JSON.stringify(h.meta.batch({ messages: [h.meta.text("56911110003", "Señor, ¿está disponible?")] }));
    const escapedSignature = await h.meta.sign(escapeNonAscii(other));
    const response = await h.post(other, { "x-hub-signature-256": escapedSignature });
    expect(response.status).toBe(200);
    const [message] = await h.thread((await h.contactByPhone("+56911110003"))!.id);
    expect(message?.content).toBe("Señor, ¿está disponible?");
    // The escaped form is a second chance only for the escaped bytes: a wrong secret still fails.
    const forged = await h.post(other, {
      "x-hub-signature-256": await h.meta.sign(escapeNonAscii(other), "nope-0000"),
    });
    expect(forged.status).toBe(401);
  });

  it("answers 200 and writes nothing for a phone number id no channel has, and 400 for a body that is not JSON", async () => {
    const h = await whatsAppHarness();
    const body = h.meta.batch({ messages: [h.meta.text("56911110004", "Hola")] }, "999999999");
    const response = await h.post(body);
    expect(response).toEqual({
      status: 200,
      json: { received: true, recorded: false, reason: "no channel has this phone number id" },
    });
    expect(await h.contactByPhone("+56911110004")).toBeNull();
    expect(h.logs.some((l) => l.level === "warn" && l.message.includes("no channel has"))).toBe(true);
    expect((await h.post("{not json")).status).toBe(400);
  });

  it("keeps each workspace's number apart: a batch signed with one app's secret records nothing for another's number", async () => {
    const h = await whatsAppHarness();
    const other = await h.vitrina.workspaces.create({ name: "Otra", ownerUserId: "owner" });
    await h.vitrina.whatsapp.channels.put({
      workspaceId: other.id,
      phoneNumberId: "777000777",
      appSecret: "the-other-apps-secret",
    });
    const batch = h.meta.batch({ messages: [h.meta.text("56911110005", "Hola")] });
    const both = {
      ...batch,
      entry: [
        ...(batch.entry as unknown[]),
        ...(h.meta.batch({ messages: [h.meta.text("56911110006", "Hola")] }, "777000777").entry as unknown[]),
      ],
    };
    const response = await h.post(both);
    expect(response.status).toBe(200);
    expect(response.json.skipped).toBe(1);
    expect(await h.contactByPhone("+56911110005")).not.toBeNull();
    expect(await h.storage.contacts.findByPhone(other.id, "+56911110006")).toBeNull();
  });

  it("refuses a body over the limit with 413 before reading it all", async () => {
    const h = await whatsAppHarness();
    const huge = JSON.stringify(
      h.meta.batch({ messages: [h.meta.text("56911110007", "x".repeat(4 * 1024 * 1024 + 10))] }),
    );
    expect((await h.post(huge)).status).toBe(413);
  });

  it("is served under basePath", async () => {
    const h = await whatsAppHarness({ basePath: "/vitrina" });
    expect(h.vitrina.whatsapp.webhookPath).toBe("/vitrina/functions/v1/whatsapp-webhook");
    const response = await h.post(h.meta.batch({ messages: [h.meta.text("56911110008", "Hola")] }));
    expect(response.status).toBe(200);
    expect(await h.contactByPhone("+56911110008")).not.toBeNull();
  });
});
