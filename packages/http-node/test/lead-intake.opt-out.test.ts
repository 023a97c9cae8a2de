import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { afterEach, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "./support/lead-harness.js";

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
        // The memory adapter leaves the first message's claim to the caller, so this runs before it.
        const registration = await inner.leads.registerNewPerson(...args);
        if (registration.registered) await fire();
        return registration;
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
  it.each([
    ["a new phone (registered in one step)", false],
    ["a known phone (registered in a transaction)", true],
  ])("stops the send for %s: the first message is blocked and nothing reaches the provider", async (_, known) => {
    const phone = "+56955550300";
    const storage = withHookAfterRegistration(() =>
      h!.vitrina.contacts.optOutOfWhatsApp({ workspaceId: h!.workspace.id, phoneE164: phone }).then(() => {}),
    );
    h = await startLeadHarness({ storage });
    if (known) {
      const earlier = await h.send(sampleLead({ contact: { phone_e164: phone }, whatsapp_consent: undefined }));
      expect(earlier.json.outbound.status).toBe("blocked");
    }
    storage.arm();
    const { json } = await h.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" } }));
    expect(json.outbound).toEqual({
      status: "blocked",
      reason: expect.stringMatching(/^contact opted out of WhatsApp at .*, before the message was sent$/),
    });
    expect(h.sentMessages).toEqual([]);
    expect(await h.storage.events.listByWorkspace(h.workspace.id, { type: "conversation.started" })).toEqual([]);
  });
});
