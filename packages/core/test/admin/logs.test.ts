import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingLogger } from "../support/recording-logger.js";
import { startAdminHarness, type AdminHarness } from "../support/admin-harness.js";

describe("admin API: every refusal is logged, without secrets", () => {
  const { logger, entries } = recordingLogger();
  let h: AdminHarness;
  beforeAll(async () => {
    h = await startAdminHarness({ logger, members: ["mia"] });
  });
  afterAll(async () => {
    await h.close();
  });

  it("logs code, route, fields and who for 401, 403, 422 and 409, and never the key or the body", async () => {
    entries.length = 0;
    await h.call("GET", "/v1/connectors", "vtr_live_not-a-real-key");
    await h.call("POST", "/v1/connectors", "console:mia", { name: "X", system: "x" });
    await h.call("POST", "/v1/api-keys", h.adminKey, { name: "secret-name-\u0000", scopes: ["nope"] });
    await h.call("DELETE", "/v1/members/owner-1", "console:owner-1");
    const refused = entries.filter((e) => e.message === "admin request refused");
    expect(refused.map((e) => [e.fields.code, e.fields.route])).toEqual([
      ["unauthorized", "connectors.list"],
      ["forbidden", "connectors.create"],
      ["invalid_payload", "api_keys.issue"],
      ["conflict", "members.remove"],
    ]);
    expect(refused[1]!.fields).toMatchObject({ principal: "console", keyId: "session-mia" });
    // The body reader refuses U+0000 at the edge, naming the field, before the schema runs.
    expect(refused[2]!.fields.fields).toEqual(["name"]);
    const all = JSON.stringify(entries);
    expect(all).not.toContain(h.adminKey);
    expect(all).not.toContain("vtr_live_not-a-real-key");
    expect(all).not.toContain("secret-name");
  });
});
