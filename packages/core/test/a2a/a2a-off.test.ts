import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startA2aServer, type A2aServer } from "./support/a2a-harness.js";

// The catalog as main served it before A2A existed, for this harness's workspace and clock.
// Regenerate with UPDATE_CATALOG_FIXTURE=1 when the catalog changes on purpose.
const FIXTURE = new URL("./fixtures/catalog-a2a-off.json", import.meta.url);

describe.each([
  ["absent", {}],
  ["enabled: false", { a2a: { enabled: false } }],
])("A2A off (%s)", (_name, over) => {
  let h: A2aServer;
  beforeAll(async () => {
    h = await startA2aServer(over);
  });
  afterAll(() => h.close());

  it("serves no agent card and no /a2a route: 404", async () => {
    expect((await h.call("GET", "/.well-known/agent-card.json", { key: null })).status).toBe(404);
    expect((await h.rpc("SendMessage", {})).status).toBe(404);
    expect((await h.call("GET", "/a2a")).status).toBe(404);
    expect(h.vitrina.wellKnownPaths).toEqual([]);
  });

  it("serves the catalog byte for byte as before A2A existed", async () => {
    const catalog = await h.call("GET", "/v1/capabilities", { key: null });
    if (process.env.UPDATE_CATALOG_FIXTURE) writeFileSync(FIXTURE, catalog.text);
    expect(catalog.text).toBe(readFileSync(FIXTURE, "utf8"));
  });
});
