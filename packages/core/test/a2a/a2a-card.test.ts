import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { AgentCard } from "@a2a-js/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loyaltyPoints } from "../support/catalog-server.js";
import { startA2aServer, type A2aServer } from "./support/a2a-harness.js";
import { startOAuthHarness, type OAuthHarness } from "../oauth/support/oauth-harness.js";

const schema = JSON.parse(readFileSync(new URL("./support/agent-card-v1.schema.json", import.meta.url), "utf8"));
const validateCard = new Ajv({ allErrors: true, strict: false }).compile(schema);

function expectValidCard(card: unknown) {
  const valid = validateCard(card);
  expect({ valid, errors: validateCard.errors ?? [] }).toEqual({ valid: true, errors: [] });
}

describe("the agent card", () => {
  let h: A2aServer;
  beforeAll(async () => {
    h = await startA2aServer({ a2a: { enabled: true } });
  });
  afterAll(() => h.close());

  it("is public and cacheable: no credential needed, a strong ETag, 304 on If-None-Match", async () => {
    const first = await h.call("GET", "/.well-known/agent-card.json", { key: null });
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, max-age=300");
    // Its URLs follow the request's host (no publicUrl here): a shared cache keeps one copy per host.
    expect(first.headers.get("vary")).toBe("Accept-Encoding, Host");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await h.call("GET", "/.well-known/agent-card.json", {
      key: null,
      headers: { "if-none-match": etag! },
    });
    expect([again.status, again.text]).toEqual([304, ""]);
    expect(again.headers.get("etag")).toBe(etag);
  });

  it("validates against the A2A v1.0 card schema, and the SDK's v1.0 types read it as meant", async () => {
    const card = (await h.call("GET", "/.well-known/agent-card.json", { key: null })).json;
    expectValidCard(card);
    // The schema has teeth: a card without skills, or with v0.3's top-level url, fails it.
    const { skills: _skills, ...withoutSkills } = card;
    expect(validateCard(withoutSkills)).toBe(false);
    expect(validateCard({ ...card, url: `${h.server.url}/a2a` })).toBe(false);
    const parsed = AgentCard.fromJSON(card);
    expect(parsed.supportedInterfaces).toEqual([
      { url: `${h.server.url}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
    ]);
    expect(parsed.capabilities).toMatchObject({ streaming: false, pushNotifications: false, extendedAgentCard: false });
    expect(parsed.securitySchemes.apiKey?.scheme).toMatchObject({
      $case: "httpAuthSecurityScheme",
      value: { scheme: "Bearer" },
    });
    // Without the oauth option there is no authorization server to name.
    expect(Object.keys(parsed.securitySchemes)).toEqual(["apiKey"]);
  });

  it("has one skill per capability, named and described from the catalog, JSON in and out", async () => {
    const card = (await h.call("GET", "/.well-known/agent-card.json", { key: null })).json;
    const catalog = (await h.call("GET", "/v1/capabilities", { key: null })).json;
    expect(card.skills.map((s: any) => s.id)).toEqual(catalog.capabilities.map((c: any) => c.name));
    for (const capability of catalog.capabilities) {
      const skill = card.skills.find((s: any) => s.id === capability.name);
      expect(skill).toMatchObject({
        name: capability.name,
        description: capability.summary,
        inputModes: ["application/json"],
        outputModes: ["application/json"],
      });
      expect(skill.tags).toEqual([capability.execution, capability.riskClass, ...capability.requiredScopes]);
      // The example is a call's data part: the capability and its required input fields.
      const example = JSON.parse(skill.examples[0]);
      expect(example.capability).toBe(capability.name);
      expect(Object.keys(example.input).sort()).toEqual([...(capability.inputSchema.required ?? [])].sort());
    }
  });

  it("declares the capability-call extension, pointing at the catalog that holds the schemas", async () => {
    const card = (await h.call("GET", "/.well-known/agent-card.json", { key: null })).json;
    const [extension] = card.capabilities.extensions;
    expect(extension).toMatchObject({ uri: "urn:vitrina:a2a:capability-call:v1", required: true });
    const catalog = await fetch(extension.params.catalog);
    expect(catalog.status).toBe(200);
    expect((await catalog.json()).capabilities[0].inputSchema).toBeTypeOf("object");
  });

  it("gains a skill, and a new ETag, when a capability is registered", async () => {
    const before = await h.call("GET", "/.well-known/agent-card.json", { key: null });
    h.vitrina.capabilities.register(loyaltyPoints);
    const after = await h.call("GET", "/.well-known/agent-card.json", { key: null });
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    const skill = after.json.skills.find((s: any) => s.id === "loyalty.points");
    expect(JSON.parse(skill.examples[0])).toEqual({ capability: "loyalty.points", input: { contact_id: "<string>" } });
    expectValidCard(after.json);
  });

  it("is reported in the catalog: A2A AVAILABLE in a row of its own, UCP and AP2 still planned", async () => {
    const { surfaces } = (await h.call("GET", "/v1/capabilities", { key: null })).json;
    expect(surfaces.find((s: any) => s.surface === "A2A")).toMatchObject({ status: "AVAILABLE" });
    expect(surfaces.find((s: any) => s.surface === "UCP / AP2")).toMatchObject({ status: "PLANNED" });
    expect(surfaces.some((s: any) => s.surface === "A2A / UCP / AP2")).toBe(false);
    expect(h.vitrina.wellKnownPaths).toEqual(["/.well-known/agent-card.json"]);
  });
});

describe("the agent card behind a proxy, mounted under a basePath", () => {
  let h: A2aServer;
  beforeAll(async () => {
    h = await startA2aServer({ a2a: { enabled: true }, basePath: "/vitrina", publicUrl: "https://shop.example.com" });
  });
  afterAll(() => h.close());

  it("is served at the origin's well-known path and names the public URLs under the mount", async () => {
    const card = await h.call("GET", "/.well-known/agent-card.json", { key: null });
    expect(card.status).toBe(200);
    expect(card.json.supportedInterfaces[0].url).toBe("https://shop.example.com/vitrina/a2a");
    expect(card.json.capabilities.extensions[0].params.catalog).toBe(
      "https://shop.example.com/vitrina/v1/capabilities",
    );
    expect(card.headers.get("vary")).toBe("Accept-Encoding");
    expectValidCard(card.json);
    const catalog = (await h.call("GET", "/vitrina/v1/capabilities", { key: null })).json;
    expect(catalog.surfaces.find((s: any) => s.surface === "A2A").detail).toContain(
      "https://shop.example.com/vitrina/a2a",
    );
  });
});

describe("the agent card with OAuth on", () => {
  let h: OAuthHarness;
  beforeAll(async () => {
    h = await startOAuthHarness({ a2a: { enabled: true } });
  });
  afterAll(() => h.close());

  it("adds an OAuth 2.1 scheme at our authorization server, and each skill's scopes", async () => {
    const card = await (await fetch(`${h.base}/.well-known/agent-card.json`)).json();
    expectValidCard(card);
    // The card names the request's host when no publicUrl is set: one copy per host in a cache.
    expect(card.securitySchemes.oauth2.oauth2SecurityScheme).toMatchObject({
      oauth2MetadataUrl: `${h.base}/.well-known/oauth-authorization-server`,
      flows: {
        authorizationCode: { authorizationUrl: `${h.base}/authorize`, tokenUrl: `${h.base}/token`, pkceRequired: true },
      },
    });
    const metadata = await fetch(card.securitySchemes.oauth2.oauth2SecurityScheme.oauth2MetadataUrl);
    expect((await metadata.json()).issuer).toBe(h.base);
    const search = card.skills.find((s: any) => s.id === "catalog.search");
    expect(search.securityRequirements).toEqual([
      { schemes: { apiKey: { list: [] } } },
      { schemes: { oauth2: { list: ["catalog:read"] } } },
    ]);
  });
});
