import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "../../http-node/test/support/lead-harness.js";
import { backends, openTestStorage } from "./support.js";

// Escalating a conversation was a read-then-write: two operators (or an agent and an operator)
// escalating at once both passed the "not escalated yet" check and both emitted
// `conversation.escalated`. Races only show on real PostgreSQL; PGlite checks the sequential rule.
const RACES = 100;

describe.each(backends)("conversation escalation under concurrency on %s", (backend) => {
  let h: LeadHarness;
  beforeAll(async () => {
    h = await startLeadHarness({ storage: (await openTestStorage(backend)).storage });
  });
  afterAll(async () => {
    await h.close();
  });

  it(`escalates once and emits one conversation.escalated when two escalations race (${RACES} races)`, async () => {
    let doubleEscalations = 0;
    for (let i = 0; i < RACES; i++) {
      const conversation = await h.vitrina.conversations.start({
        workspaceId: h.workspace.id,
        contactId: (
          await h.send(
            sampleLead({ contact: { phone_e164: `+5697${String(i).padStart(7, "0")}` }, whatsapp_consent: undefined }),
          )
        ).json.contact_id,
        channel: "web",
        startedBy: "agent",
      });
      const escalate = (by: string) =>
        h.vitrina.conversations.escalate({
          workspaceId: h.workspace.id,
          conversationId: conversation.id,
          reason: "needs a person",
          escalatedBy: by,
        });
      const results = await Promise.allSettled([escalate("operator-a"), escalate("operator-b")]);
      const won = results.filter((r) => r.status === "fulfilled").length;
      for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "conflict" });
      if (won !== 1) doubleEscalations++;
    }
    const escalatedEvents = (await h.storage.events.listByWorkspace(h.workspace.id, { type: "conversation.escalated" }))
      .length;
    console.info(
      `[${backend}] escalation races: ${RACES}, escalated twice: ${doubleEscalations}, conversation.escalated events: ${escalatedEvents}`,
    );
    expect({ doubleEscalations, escalatedEvents }).toEqual({ doubleEscalations: 0, escalatedEvents: RACES });
  });
});
