import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead, startLeadHarness, type LeadHarness } from "../support/lead-harness.js";

const DAY = 24 * 3600_000;

// Rectification goes through `contacts.update`: the corrected name is what the person is shown from
// then on, even when their CRM keeps sending the old one with later leads.
describe("rectifying a contact's name", () => {
  let h: LeadHarness;
  beforeAll(async () => {
    h = await startLeadHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("reaches the welcome template of a later lead and the export, whatever name the CRM resends", async () => {
    const phone = "+56977712345";
    const first = await h.send(sampleLead({ contact: { phone_e164: phone, name: "Maria Peres" } }));
    expect(first.json.outbound.status).toBe("sent");
    const welcome = () => h.sentMessages.filter((m) => m.to === phone).at(-1)?.template?.bodyParameters;
    expect(welcome()).toEqual(["Maria Peres"]);

    const principal = { workspaceId: h.workspace.id, scopes: ["customers:write"] };
    const update = await h.vitrina.capabilities.invoke(
      "contacts.update",
      { contact_id: first.json.contact_id, name: "María José Pérez" },
      { principal, idempotencyKey: "rectify-1" },
    );
    expect(update.output).toEqual({ ok: true });

    // After the one-welcome window, the CRM sends a new lead still carrying the old spelling.
    h.clock.advance(2 * DAY);
    const later = await h.send(sampleLead({ contact: { phone_e164: phone, name: "Maria Peres" } }));
    expect(later.json).toMatchObject({ contact_id: first.json.contact_id, outbound: { status: "sent" } });
    expect(welcome()).toEqual(["María José Pérez"]);
    expect((await h.storage.contacts.get(h.workspace.id, first.json.contact_id))?.name).toBe("María José Pérez");

    const stream = await h.vitrina.privacy.exportContact(h.workspace.id, first.json.contact_id);
    const document = JSON.parse(await new Response(stream).text());
    expect(document.contact.name).toBe("María José Pérez");
    // The leads keep what the CRM sent, as evidence of what was received.
    expect(document.leads.map((l: any) => l.payload.contact.name)).toEqual(["Maria Peres", "Maria Peres"]);
  });
});
