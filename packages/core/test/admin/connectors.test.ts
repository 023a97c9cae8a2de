import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleLead } from "../support/lead-harness.js";
import { startAdminHarness, type AdminHarness } from "../support/admin-harness.js";

describe("admin API: connectors over a real socket", () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await startAdminHarness({ members: ["mia"] });
  });
  afterAll(async () => {
    await h.close();
  });

  it("creates a connector, shows the secret once and the exact intake URL, and the secret signs leads", async () => {
    const created = await h.call("POST", "/v1/connectors", h.adminKey, { name: " HubSpot ", system: "hubspot-main" });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect(created.json).toMatchObject({
      connector: { name: "HubSpot", system: "hubspot-main", rotated_at: null },
      intake_url: `${h.url}/functions/v1/lead-intake`,
    });
    expect(created.json.secret).toMatch(/^vtr_cs_/);
    const { id } = created.json.connector;
    const got = await h.call("GET", `/v1/connectors/${id}`, "console:mia");
    expect(got.status).toBe(200);
    expect(got.json).toEqual({ connector: created.json.connector, intake_url: created.json.intake_url });
    expect(JSON.stringify(got.json)).not.toContain(created.json.secret);
    const lead = await h.sendLead(created.json.intake_url, id, created.json.secret, sampleLead());
    expect(lead.status).toBe(200);
  });

  it("rotates: the old secret is refused with 401 at once, the new one is accepted", async () => {
    const created = await h.call("POST", "/v1/connectors", "console:owner-1", { name: "Forms", system: "forms" });
    const { id } = created.json.connector;
    const oldSecret = created.json.secret as string;
    expect((await h.sendLead(created.json.intake_url, id, oldSecret, sampleLead())).status).toBe(200);
    const rotated = await h.call("POST", `/v1/connectors/${id}/rotate`, h.adminKey);
    expect(rotated.status).toBe(200);
    expect(rotated.json.connector.rotated_at).not.toBeNull();
    expect(rotated.json.secret).not.toBe(oldSecret);
    const refused = await h.sendLead(created.json.intake_url, id, oldSecret, sampleLead());
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe("invalid_signature");
    expect((await h.sendLead(created.json.intake_url, id, rotated.json.secret, sampleLead())).status).toBe(200);
  });

  it("lists connectors in pages with next_cursor", async () => {
    for (const n of [1, 2, 3])
      await h.call("POST", "/v1/connectors", h.adminKey, { name: `CRM ${n}`, system: `crm-${n}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? "?limit=2" : `?limit=2&starting_after=${cursor}`;
      const page = await h.call("GET", `/v1/connectors${query}`, "console:mia");
      expect(page.status).toBe(200);
      expect(page.json.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.data.map((c: { system: string }) => c.system));
      cursor = page.json.next_cursor;
      expect(page.json.has_more).toBe(cursor !== null);
    } while (cursor !== null);
    expect(seen).toEqual(["hubspot-main", "forms", "crm-1", "crm-2", "crm-3"]);
    const bad = await h.call("GET", "/v1/connectors?limit=0", h.adminKey);
    expect(bad.status).toBe(422);
    expect(bad.json.error.reasons).toEqual([{ field: "limit", reason: "must be an integer from 1 to 100" }]);
  });

  it("enforces roles and scopes: a member and a read-only key read but cannot create or rotate", async () => {
    const readOnly = (
      await h.vitrina.apiKeys.issue({ userId: "owner-1" }, h.workspace.id, { name: "ro", scopes: ["admin:read"] })
    ).secret;
    const none = (
      await h.vitrina.apiKeys.issue({ userId: "owner-1" }, h.workspace.id, { name: "wh", scopes: ["webhooks:read"] })
    ).secret;
    const byMember = await h.call("POST", "/v1/connectors", "console:mia", { name: "X", system: "x" });
    expect(byMember.status).toBe(403);
    expect(byMember.json.error.code).toBe("forbidden");
    const byReadOnly = await h.call("POST", "/v1/connectors", readOnly, { name: "X", system: "x" });
    expect(byReadOnly.status).toBe(403);
    expect(byReadOnly.json.error.code).toBe("insufficient_scope");
    const list = await h.call("GET", "/v1/connectors", readOnly);
    expect(list.status).toBe(200);
    const id = list.json.data[0].id;
    expect((await h.call("POST", `/v1/connectors/${id}/rotate`, "console:mia")).status).toBe(403);
    expect((await h.call("GET", "/v1/connectors", none)).json.error.code).toBe("insufficient_scope");
    expect((await h.call("GET", "/v1/connectors", "console:stranger")).status).toBe(403);
    expect((await h.call("GET", "/v1/connectors", "vtr_live_unknown")).status).toBe(401);
  });

  it("refuses bad input naming the field, and a duplicate system with 409", async () => {
    const bad = await h.call("POST", "/v1/connectors", h.adminKey, { name: "", system: "has space", extra: 1 });
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe("invalid_payload");
    expect(bad.json.error.reasons.map((r: { field: string }) => r.field).sort()).toEqual(["extra", "name", "system"]);
    const dup = await h.call("POST", "/v1/connectors", h.adminKey, { name: "Again", system: "forms" });
    expect(dup.status).toBe(409);
    expect((await h.call("GET", "/v1/connectors/nope", h.adminKey)).status).toBe(404);
  });

  it("answers /v1/admin/me for a console session and for an API key", async () => {
    const me = await h.call("GET", "/v1/admin/me", "console:mia");
    expect(me.json).toEqual({
      workspace: { id: h.workspace.id, name: "Inmobiliaria Andes" },
      user: { id: "mia", email: null, role: "member" },
      role: "member",
      scopes: ["admin:read"],
    });
    const key = await h.call("GET", "/v1/admin/me", h.adminKey);
    expect(key.json).toEqual({
      workspace: { id: h.workspace.id, name: "Inmobiliaria Andes" },
      role: "admin",
      scopes: ["admin:read", "admin:write"],
    });
  });

  it("lists a connector's recent leads newest first with their outcome, in pages", async () => {
    const created = await h.call("POST", "/v1/connectors", h.adminKey, { name: "Leads", system: "leads-src" });
    const { id } = created.json.connector;
    const first = sampleLead({ qualification: { monthly_income: "lots" } });
    const second = sampleLead({ whatsapp_consent: undefined });
    for (const lead of [first, second]) {
      expect((await h.sendLead(created.json.intake_url, id, created.json.secret, lead)).status).toBe(200);
      h.clock.advance(1);
    }
    const page = await h.call("GET", `/v1/connectors/${id}/leads?limit=1`, "console:mia");
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({
      has_more: true,
      data: [{ source_lead_id: second.source_lead_id, duplicate: false }],
    });
    const rest = await h.call(
      "GET",
      `/v1/connectors/${id}/leads?limit=1&starting_after=${page.json.next_cursor}`,
      h.adminKey,
    );
    expect(rest.json.has_more).toBe(false);
    const [older] = rest.json.data;
    expect(older.source_lead_id).toBe(first.source_lead_id);
    expect(older.outbound_status).not.toBeNull();
    expect(older.rejected_qualification.map((r: { field: string }) => r.field)).toEqual(["monthly_income"]);
    expect(Object.keys(older).sort()).toEqual([
      "duplicate",
      "id",
      "object",
      "outbound_reason",
      "outbound_status",
      "received_at",
      "rejected_qualification",
      "source_lead_id",
    ]);
  });
});
