import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead } from "../support/lead-harness.js";
import { startAdminHarness, type AdminHarness } from "../support/admin-harness.js";

describe("admin API: contacts' consent over a real socket", () => {
  let h: AdminHarness;
  let readOnly: { id: string; secret: string };
  /** Registers a lead through a connector, as a CRM would, and returns its contact id. */
  let leadContact: () => Promise<string>;
  beforeAll(async () => {
    h = await startAdminHarness({ members: ["mia"] });
    const issued = await h.vitrina.apiKeys.issue({ userId: "owner-1" }, h.workspace.id, {
      name: "ro",
      scopes: ["admin:read"],
    });
    readOnly = { id: issued.key.id, secret: issued.secret };
    const created = await h.call("POST", "/v1/connectors", h.adminKey, { name: "CRM", system: "crm" });
    leadContact = async () => {
      const lead = await h.sendLead(
        created.json.intake_url,
        created.json.connector.id,
        created.json.secret,
        sampleLead(),
      );
      expect(lead.status).toBe(200);
      return lead.json.contact_id as string;
    };
  });
  afterAll(async () => {
    await h.close();
  });

  it("shows a contact's consent view, with the service window opening on an inbound message", async () => {
    const id = await leadContact();
    const got = await h.call("GET", `/v1/contacts/${id}`, "console:mia");
    expect(got.status).toBe(200);
    expect(got.json).toEqual({
      id,
      object: "contact",
      name: "María Pérez",
      phone_e164: expect.stringMatching(/^\+569/),
      whatsapp_user_id: null,
      whatsapp_consent: expect.objectContaining({ granted: true, source: "landing-form", purpose: "sales follow-up" }),
      whatsapp_opted_out_at: null,
      whatsapp_resumed_at: null,
      whatsapp_last_inbound_at: null,
      service_window: { open: false, closes_at: null },
    });
    const at = h.clock.now().toISOString();
    await h.storage.contacts.recordInbound(h.workspace.id, id, at);
    const open = await h.call("GET", `/v1/contacts/${id}`, readOnly.secret);
    expect(open.json.whatsapp_last_inbound_at).toBe(at);
    expect(open.json.service_window).toEqual({
      open: true,
      closes_at: new Date(Date.parse(at) + 24 * 3600 * 1000).toISOString(),
    });
    h.clock.advance(24 * 3600 * 1000);
    expect((await h.call("GET", `/v1/contacts/${id}`, readOnly.secret)).json.service_window.open).toBe(false);
  });

  it("opts a contact out by API key: the ledger names the key, newest first, and GET shows the opt-out", async () => {
    const id = await leadContact();
    const optedOut = await h.call("POST", `/v1/contacts/${id}/opt-out`, h.adminKey, { note: "asked by phone" });
    expect(optedOut.status).toBe(200);
    expect(optedOut.json.whatsapp_opted_out_at).toEqual(expect.any(String));
    expect((await h.call("GET", `/v1/contacts/${id}`, "console:mia")).json).toEqual(optedOut.json);
    const adminKeyId = (await h.call("GET", "/v1/api-keys", h.adminKey)).json.data.find(
      (k: { name: string }) => k.name === "admin",
    ).id;
    const ledger = await h.call("GET", `/v1/contacts/${id}/consent`, readOnly.secret);
    expect(ledger.status).toBe(200);
    expect(ledger.json.items.map((e: { kind: string; source: string }) => [e.kind, e.source])).toEqual([
      ["opted_out", "api_key"],
      ["granted", "lead"],
    ]);
    expect(ledger.json.items[0]).toMatchObject({
      object: "consent_change",
      workspace_id: h.workspace.id,
      contact_id: id,
      source_ref: adminKeyId,
      evidence: { request: "off_channel", note: "asked by phone" },
      dedupe_key: null,
    });
    const one = await h.call("GET", `/v1/contacts/${id}/consent?limit=1`, h.adminKey);
    expect(one.json.items).toEqual([ledger.json.items[0]]);
  });

  it("opts a contact out from a console session (no body needed): the ledger names the user", async () => {
    const id = await leadContact();
    const optedOut = await h.call("POST", `/v1/contacts/${id}/opt-out`, "console:owner-1");
    expect(optedOut.status).toBe(200);
    const [entry] = (await h.call("GET", `/v1/contacts/${id}/consent`, "console:mia")).json.items;
    expect(entry).toMatchObject({ kind: "opted_out", source: "console", source_ref: "owner-1" });
    expect(entry.evidence).toEqual({ request: "off_channel" });
  });

  it("refuses members and read-only keys, bad notes and limits naming the field, and unknown contacts", async () => {
    const id = await leadContact();
    const byMember = await h.call("POST", `/v1/contacts/${id}/opt-out`, "console:mia", {});
    expect(byMember.status).toBe(403);
    expect(byMember.json.error.code).toBe("forbidden");
    const byKey = await h.call("POST", `/v1/contacts/${id}/opt-out`, readOnly.secret, {});
    expect(byKey.json.error.code).toBe("insufficient_scope");
    expect((await h.call("GET", `/v1/contacts/${id}`, h.adminKey)).json.whatsapp_opted_out_at).toBeNull();

    for (const [body, field] of [
      [{ note: 5 }, "note"],
      [{ note: "x".repeat(501) }, "note"],
      [{ reason: "x" }, "reason"],
    ] as const) {
      const bad = await h.call("POST", `/v1/contacts/${id}/opt-out`, h.adminKey, body);
      expect(bad.status).toBe(422);
      expect(bad.json.error.reasons.map((r: { field: string }) => r.field)).toEqual([field]);
    }
    for (const limit of ["0", "201", "abc", "1.5", "-1"]) {
      const bad = await h.call("GET", `/v1/contacts/${id}/consent?limit=${limit}`, h.adminKey);
      expect(bad.status).toBe(422);
      expect(bad.json.error.reasons.map((r: { field: string }) => r.field)).toEqual(["limit"]);
    }
    expect((await h.call("GET", `/v1/contacts/${id}/consent?limit=200`, h.adminKey)).status).toBe(200);
    for (const path of ["/v1/contacts/nope", "/v1/contacts/nope/consent"])
      expect((await h.call("GET", path, h.adminKey)).status).toBe(404);
    expect((await h.call("POST", "/v1/contacts/nope/opt-out", h.adminKey)).status).toBe(404);
  });

  it("keeps another workspace's contacts unknown (404)", async () => {
    const other = await h.vitrina.workspaces.create({ name: "Otra", ownerUserId: "owner-2" });
    const stranger = await h.vitrina.contacts.optOutOfWhatsApp({ workspaceId: other.id, phoneE164: "+56911112222" });
    expect((await h.call("GET", `/v1/contacts/${stranger.id}`, h.adminKey)).status).toBe(404);
    expect((await h.call("GET", `/v1/contacts/${stranger.id}/consent`, h.adminKey)).status).toBe(404);
    expect((await h.call("POST", `/v1/contacts/${stranger.id}/opt-out`, h.adminKey)).status).toBe(404);
  });
});
