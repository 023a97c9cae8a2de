import { describe, expect, it } from "vitest";
import { whatsAppHarness } from "./support.js";

// An erased person who had opted out writes again on WhatsApp: they are a new contact, and that
// contact starts opted out (the suppression entry matched their user id or phone), so no lead for
// them is welcomed until they opt back in on the channel themselves.
describe("an erased person writing again", () => {
  it("becomes a new contact that starts opted out, found by user id when they come without a phone", async () => {
    const h = await whatsAppHarness();
    const userId = "CL.98765432109876543210";
    await h.post(
      h.meta.batch({
        messages: [h.meta.text("56922229001", "BAJA")],
        contacts: [{ profile: { name: "Eva" }, wa_id: "56922229001", user_id: userId }],
      }),
    );
    const original = (await h.contactByPhone("+56922229001"))!;
    expect(original.whatsappOptedOutAt).not.toBeNull();
    await h.vitrina.privacy.eraseContact({ workspaceId: h.workspace.id, contactId: original.id, requestedBy: "test" });

    // They write again with a username only (no phone): the user id's hash finds the entry.
    const batch = h.meta.batch({
      messages: [{ ...h.meta.text("56922229001", "hola de nuevo"), from: undefined, from_user_id: userId }],
      contacts: [{ profile: { name: "Eva" }, user_id: userId }],
    });
    expect((await h.post(batch)).json).toMatchObject({ messages: { recorded: 1 } });
    const again = (await h.storage.contacts.findByWhatsAppUserId(h.workspace.id, userId))!;
    expect(again.id).not.toBe(original.id);
    expect(again.whatsappOptedOutAt).toBe(original.whatsappOptedOutAt);
    const [entry] = await h.storage.consentLedger.listByContact(h.workspace.id, again.id, { limit: 5 });
    expect(entry).toMatchObject({ kind: "opted_out", source: "service", sourceRef: "suppression" });
  });

  it("a stranger, or a person erased without an opt-out, starts with no opt-out", async () => {
    const h = await whatsAppHarness();
    const lead = await h.lead("+56922229002");
    expect(lead.outbound.status).toBe("sent");
    const contact = (await h.contactByPhone("+56922229002"))!;
    await h.vitrina.privacy.eraseContact({ workspaceId: h.workspace.id, contactId: contact.id, requestedBy: "test" });
    await h.post(h.meta.batch({ messages: [h.meta.text("56922229002", "hola")] }));
    expect((await h.contactByPhone("+56922229002"))!.whatsappOptedOutAt).toBeNull();
  });
});
