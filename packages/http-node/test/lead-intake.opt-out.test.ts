import { memoryStorage } from "@vitrina/adapter-memory";
import type { Storage } from "@vitrina/core";
import { afterEach, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "./support/lead-harness.js";

let h: LeadHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** A storage that runs `afterFirstCommit` once, right after the first transaction that commits (the lead's registration). */
function withHookAfterRegistration(afterFirstCommit: () => Promise<void>): Storage {
  const inner = memoryStorage();
  let armed = false;
  return {
    ...inner,
    async transaction(work) {
      const result = await inner.transaction(work);
      if (armed) {
        armed = false;
        await afterFirstCommit();
      }
      return result;
    },
    arm() {
      armed = true;
    },
  } as Storage & { arm(): void };
}

describe("an opt-out between a lead's registration and its send", () => {
  it("stops the send: the first message is blocked and nothing reaches the provider", async () => {
    const phone = "+56955550300";
    const storage = withHookAfterRegistration(() =>
      h!.vitrina.contacts.optOutOfWhatsApp({ workspaceId: h!.workspace.id, phoneE164: phone }).then(() => {}),
    );
    h = await startLeadHarness({ storage });
    (storage as Storage & { arm(): void }).arm();
    const { json } = await h.send(sampleLead({ contact: { phone_e164: phone, name: "Ana" } }));
    expect(json.outbound).toEqual({
      status: "blocked",
      reason: expect.stringMatching(/^contact opted out of WhatsApp at .*, before the message was sent$/),
    });
    expect(h.sentMessages).toEqual([]);
    expect(await h.storage.events.listByWorkspace(h.workspace.id, { type: "conversation.started" })).toEqual([]);
  });
});
