import { afterEach, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "../support/lead-harness.js";

let harness: LeadHarness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

describe("lead intake opens the WhatsApp conversation", () => {
  it("creates conversation, first message and conversation.started when the first message goes out", async () => {
    harness = await startLeadHarness();
    const { status, json } = await harness.send(sampleLead());
    expect(status).toBe(200);
    expect(json.outbound.status).toBe("sent");
    const [event] = await harness.storage.events.listByWorkspace(harness.workspace.id);
    expect(event).toMatchObject({
      type: "conversation.started",
      data: { contact_id: json.contact_id, channel: "whatsapp", started_by: "lead_intake" },
    });
    const conversation = await harness.storage.conversations.get(
      harness.workspace.id,
      (event!.data as { conversation_id: string }).conversation_id,
    );
    expect(conversation).toMatchObject({ contactId: json.contact_id, channel: "whatsapp", status: "open" });
    const messages = await harness.storage.messages.listByConversation(conversation!.id);
    expect(messages).toEqual([
      expect.objectContaining({ sender: "agent", content: expect.stringContaining("[template vitrina_welcome]") }),
    ]);
  });

  it("emits nothing when the first message is blocked", async () => {
    harness = await startLeadHarness();
    const { json } = await harness.send(sampleLead({ whatsapp_consent: undefined }));
    expect(json.outbound.status).toBe("blocked");
    expect(await harness.storage.events.listByWorkspace(harness.workspace.id)).toEqual([]);
  });
});
