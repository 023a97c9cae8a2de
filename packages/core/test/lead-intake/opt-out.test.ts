import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { afterEach, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "../support/lead-harness.js";

let h: LeadHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/**
 * A storage that runs `afterRegistration` once, right after the first lead registration that
 * commits once armed: `leads.registerNewPerson` for a new phone, the transaction for a known one.
 */
function withHookAfterRegistration(afterRegistration: () => Promise<void>): Storage & { arm(): void } {
  const inner = memoryStorage();
  let armed = false;
  const fire = async () => {
    if (!armed) return;
    armed = false;
    await afterRegistration();
  };
  return {
    ...inner,
    leads: {
      ...inner.leads,
      async registerNewPerson(...args) {
        const registered = await inner.leads.registerNewPerson(...args);
        if (registered) await fire();
        return registered;
      },
    },
    async transaction(work) {
      const result = await inner.transaction(work);
      await fire();
      return result;
    },
    arm() {
      armed = true;
    },
  };
}

describe("an opt-out between a lead's registration and its send", () => {
  it("stops the send for a known phone (registered in a transaction, claimed after it): the first message is blocked and nothing reaches the provider", async () => {
    const phone = "+56955550300";
    const storage = withHookAfterRegistration(() =>
      h!.vitrina.contacts.optOutOfWhatsApp({ workspaceId: h!.workspace.id, phoneE164: phone }).then(() => {}),
    );
    h = await startLeadHarness({ storage });
    const earlier = await h.send(sampleLead({ contact: { phone_e164: phone }, whatsapp_consent: undefined }));
    expect(earlier.json.outbound.status).toBe("blocked");
    storage.arm();
    const { json } = await h.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" } }));
    expect(json.outbound).toEqual({
      status: "blocked",
      reason: expect.stringMatching(/^contact opted out of WhatsApp at .*, before the message was sent$/),
    });
    expect(h.sentMessages).toEqual([]);
    expect(await h.storage.events.listByWorkspace(h.workspace.id, { type: "conversation.started" })).toEqual([]);
  });

  it("comes after the hand-over for a new phone (the registration is the claim): the message goes out, and the opt-out blocks the next lead", async () => {
    const phone = "+56955550301";
    const storage = withHookAfterRegistration(() =>
      h!.vitrina.contacts.optOutOfWhatsApp({ workspaceId: h!.workspace.id, phoneE164: phone }).then(() => {}),
    );
    h = await startLeadHarness({ storage });
    storage.arm();
    const { json } = await h.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" } }));
    expect(json.outbound).toEqual({ status: "sent", reason: null });
    expect(h.sentMessages.map((m) => m.to)).toEqual([phone]);
    const next = await h.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" } }));
    expect(next.json.outbound).toEqual({
      status: "blocked",
      reason: expect.stringMatching(/^contact opted out of WhatsApp at /),
    });
    expect(h.sentMessages).toHaveLength(1);
  });
});
