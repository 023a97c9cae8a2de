import { whatsAppCloudTransport } from "@vitrina/core";
import { whatsAppProvider, type ApprovedTemplate } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";
import { APP_SECRET, whatsAppHarness } from "./support.js";

// Items 6 and 7 of issue 46: a lead without a name sent `"text": ""`, which the Cloud API refuses,
// and nothing said that `vitrina_welcome` must exist. The fake Graph API answers the provider's own
// errors, so these tests see what a user would.
async function harnessSendingTo(templates?: ApprovedTemplate[], leadIntake?: object) {
  const graph = whatsAppProvider({ phoneNumberId: "1065", appSecret: APP_SECRET }).graphApi({ templates });
  const messaging = whatsAppCloudTransport({ accessToken: "EAAtoken", phoneNumberId: "1065", fetch: graph.fetch });
  return { graph, h: await whatsAppHarness({ messaging, ...(leadIntake && { leadIntake }) }) };
}
const bodyParameters = (send: { body: Record<string, any> }) =>
  send.body.template.components[0].parameters.map((p: { text: string }) => p.text);

describe("the welcome template against the Cloud API's rules", () => {
  it("a lead without a name is welcomed with the fallback, never an empty parameter", async () => {
    const { graph, h } = await harnessSendingTo();
    for (const contact of [
      { phone_e164: "+56911110001" },
      { phone_e164: "+56911110002", email: "sin-nombre@example.com" },
    ]) {
      const answer = await h.lead(contact.phone_e164, { contact });
      expect(answer.outbound?.status, JSON.stringify(answer)).toBe("queued");
    }
    expect(graph.sent.map(bodyParameters)).toEqual([["cliente"], ["cliente"]]);
    expect(graph.refused).toEqual([]);
  });

  it("the fallback is configurable, and a named lead still gets its name", async () => {
    const firstMessage = { template: "vitrina_welcome", language: "es", nameFallback: "vecino" };
    const { graph, h } = await harnessSendingTo(undefined, { firstMessage });
    await h.lead("+56911110003", { contact: { phone_e164: "+56911110003" } });
    await h.lead("+56911110004", { contact: { phone_e164: "+56911110004", name: "Ana" } });
    expect(graph.sent.map(bodyParameters)).toEqual([["vecino"], ["Ana"]]);
  });

  it("the fake answers the provider's error for an empty parameter, which the old default sent", async () => {
    const firstMessage = { template: "vitrina_welcome", language: "es", bodyParameters: () => [""] };
    const { graph, h } = await harnessSendingTo(undefined, { firstMessage });
    const answer = await h.lead("+56911110005");
    expect(answer.outbound).toMatchObject({ status: "failed" });
    expect(answer.outbound.reason).toBe(
      'WhatsApp Cloud API error 400 (code 131008): a template parameter was empty, which the Cloud API refuses (provider: "(#131008) Required parameter is missing: Parameter of type text is missing text value")',
    );
    expect(graph.refused.map((r) => r.code)).toEqual([131008]);
  });

  it("a missing (or not yet approved) template fails the first message with plain words the CRM sees", async () => {
    const { graph, h } = await harnessSendingTo([{ name: "vitrina_welcome", language: "en_US", bodyParameters: 1 }]);
    const answer = await h.lead("+56911110006");
    expect(answer.outbound.status).toBe("failed");
    expect(answer.outbound.reason).toBe(
      'WhatsApp Cloud API error 400 (code 132001): the message template "vitrina_welcome" in language "es" does not exist or is not approved on this WhatsApp Business Account: create it in WhatsApp Manager and wait for its approval (provider: "(#132001) Template name does not exist in the translation: template name (vitrina_welcome) does not exist in es")',
    );
    expect(graph.sent).toEqual([]);
  });

  it("a template approved with a different parameter count is named as such", async () => {
    const { h } = await harnessSendingTo([{ name: "vitrina_welcome", language: "es", bodyParameters: 2 }]);
    const answer = await h.lead("+56911110007");
    expect(answer.outbound.reason).toContain(
      '(code 132000): the approved template "vitrina_welcome" expects a different number of body parameters',
    );
  });

  it("a blank nameFallback is refused when Vitrina is created", async () => {
    await expect(
      harnessSendingTo(undefined, { firstMessage: { template: "t", language: "es", nameFallback: " " } }),
    ).rejects.toMatchObject({ code: "invalid_argument", reasons: [{ field: "leadIntake.firstMessage.nameFallback" }] });
  });
});
