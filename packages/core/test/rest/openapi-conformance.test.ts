import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineCapability } from "@vitrina/core";
import { serve } from "@vitrina/http-node";
import { restVitrina } from "./openapi-types.js";

type Operation = { responses: Record<string, unknown> };

/**
 * What the server answers, held against what `GET /v1/openapi.json` promises for the same
 * operation: a status the document doesn't list leaves a generated client with an untyped answer.
 */
describe("GET /v1/openapi.json against the server's answers", () => {
  let server: Awaited<ReturnType<typeof serve>>;
  let document: { paths: Record<string, Record<string, Operation>> };
  let subscriptionId: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    const vitrina = restVitrina({ webhooks: { allowInsecureLoopback: true } });
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
    const { secret } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
      name: "ERP",
      scopes: ["catalog:read", "webhooks:read", "webhooks:write"],
    });
    headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
    server = await serve(vitrina.handler, { port: 0, handleSignals: false });
    document = await (await fetch(`${server.url}/v1/openapi.json`)).json();
    const subscription = {
      url: "http://127.0.0.1:9/hooks",
      events: ["quote.created"],
      secret: "whsec_0123456789abcdefABCDEF",
    };
    subscriptionId = (await call("POST", "/v1/webhooks", JSON.stringify(subscription))).json.id;
  });
  afterAll(() => server.close());

  async function call(method: string, path: string, body?: string, extra: Record<string, string> = {}) {
    const response = await fetch(`${server.url}${path}`, { method, headers: { ...headers, ...extra }, body });
    const text = await response.text();
    return { status: response.status, json: text === "" ? null : JSON.parse(text) };
  }

  /** The statuses the document lists for `method` on the templated `path`. */
  const documented = (path: string, method: string) => Object.keys(document.paths[path]![method]!.responses);

  it("lists every status an operation answers: 202 on resend, 422 for a bad page size, 400 for a bad parameter, 413 and 415 for JSON bodies", async () => {
    const test = await call("POST", `/v1/webhooks/${subscriptionId}/test`);
    const resend = await call("POST", `/v1/webhooks/${subscriptionId}/deliveries/${test.json.delivery_id}/resend`);
    const badLimit = await call("GET", `/v1/webhooks/${subscriptionId}/deliveries?limit=0`);
    const tooLarge = JSON.stringify({ search: "x".repeat(70 * 1024) });
    const answers = [
      ["/v1/webhooks/{id}/deliveries/{deliveryId}/resend", "post", resend.status],
      ["/v1/webhooks/{id}/deliveries", "get", badLimit.status],
      ["/v1/webhooks", "post", (await call("POST", "/v1/webhooks", "{}", { "content-type": "text/plain" })).status],
      ["/v1/webhooks", "post", (await call("POST", "/v1/webhooks", tooLarge)).status],
      ["/v1/webhooks/{id}", "patch", (await call("PATCH", `/v1/webhooks/${subscriptionId}`, tooLarge)).status],
      [
        "/v1/webhooks/{id}",
        "patch",
        (await call("PATCH", `/v1/webhooks/${subscriptionId}`, "{}", { "content-type": "text/plain" })).status,
      ],
      ["/v1/webhooks/{id}", "get", (await call("GET", "/v1/webhooks/%E0%A4%A")).status],
      ["/v1/webhooks/{id}", "delete", (await call("DELETE", "/v1/webhooks/%E0%A4%A")).status],
      ["/v1/webhooks", "get", (await call("GET", "/v1/webhooks?cursor=%00")).status],
      ["/v1/rest/catalog.search", "post", (await call("POST", "/v1/rest/catalog.search", tooLarge)).status],
      [
        "/v1/rest/catalog.search",
        "post",
        (await call("POST", "/v1/rest/catalog.search", "{}", { "content-type": "text/plain" })).status,
      ],
    ] as const;
    expect(answers.map(([, , status]) => status)).toEqual([202, 422, 415, 413, 413, 415, 400, 400, 400, 413, 415]);
    for (const [path, method, status] of answers) {
      expect(documented(path, method), `${method.toUpperCase()} ${path} answers ${status}`).toContain(String(status));
    }
  });

  it("describes the test-delivery route and the webhook.test deliveries it lists in a subscription's history", async () => {
    const test = await call("POST", `/v1/webhooks/${subscriptionId}/test`);
    expect(test.status).toBe(202);
    const operation = document.paths["/v1/webhooks/{id}/test"]?.post as any;
    expect(operation?.responses["202"].content["application/json"].schema.required).toEqual([
      "delivery_id",
      "event_id",
    ]);
    const history = await call("GET", `/v1/webhooks/${subscriptionId}/deliveries`);
    const listed = history.json.data.find((delivery: any) => delivery.id === test.json.delivery_id);
    const schemas = (document as any).components.schemas;
    expect(schemas.Delivery.properties.event_type.enum).toContain(listed.event_type);
  });
});

describe("GET /v1/openapi.json: a capability's scopes as security requirements", () => {
  it("offers one requirement per scope for anyOf (any one is enough) and one with every scope for allOf", async () => {
    const withScopes = (name: string, scopeMatch: "anyOf" | "allOf") =>
      defineCapability({
        name,
        version: "1.0.0",
        summary: "Reads points.",
        execution: "query",
        riskClass: "read",
        requiredScopes: ["loyalty:read", "customers:read"],
        scopeMatch,
        input: z.strictObject({}),
        output: z.strictObject({ points: z.number() }),
        idempotency: { required: false, strategy: "none" },
        run: async () => ({ output: { points: 1 } }),
      });
    const vitrina = restVitrina({
      capabilities: { extra: [withScopes("loyalty.any", "anyOf"), withScopes("loyalty.all", "allOf")] },
    });
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
    const { secret } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
      name: "one scope",
      scopes: ["customers:read"],
    });
    const document = await (await vitrina.handler(new Request("http://vitrina.test/v1/openapi.json"))).json();
    const get = (name: string) =>
      vitrina.handler(
        new Request(`http://vitrina.test/v1/rest/${name}`, { headers: { authorization: `Bearer ${secret}` } }),
      );
    // A key with one of the two scopes is served by the anyOf capability and refused by the allOf one.
    expect([(await get("loyalty.any")).status, (await get("loyalty.all")).status]).toEqual([200, 403]);
    expect(document.paths["/v1/rest/loyalty.any"].get.security).toEqual([
      { bearer: ["loyalty:read"] },
      { bearer: ["customers:read"] },
    ]);
    expect(document.paths["/v1/rest/loyalty.all"].get.security).toEqual([
      { bearer: ["loyalty:read", "customers:read"] },
    ]);
    await vitrina.close();
  });
});

describe("GET /v1/openapi.json: query parameters", () => {
  it("publishes no GET parameter the server refuses as an object, a nullable object included", async () => {
    const vitrina = restVitrina({
      capabilities: {
        extra: [
          defineCapability({
            name: "loyalty.search",
            version: "1.0.0",
            summary: "Finds members.",
            execution: "query",
            riskClass: "read",
            requiredScopes: ["customers:read"],
            scopeMatch: "anyOf",
            input: z.strictObject({
              name: z.string().optional(),
              filter: z.strictObject({ tier: z.string() }).nullable().optional(),
            }),
            output: z.strictObject({ count: z.number() }),
            idempotency: { required: false, strategy: "none" },
            run: async () => ({ output: { count: 0 } }),
          }),
        ],
      },
    });
    const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
    const { secret } = await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, {
      name: "k",
      scopes: ["customers:read"],
    });
    const refused = await vitrina.handler(
      new Request("http://vitrina.test/v1/rest/loyalty.search?filter=gold", {
        headers: { authorization: `Bearer ${secret}` },
      }),
    );
    expect(refused.status).toBe(400);
    const document = await (await vitrina.handler(new Request("http://vitrina.test/v1/openapi.json"))).json();
    expect(document.paths["/v1/rest/loyalty.search"].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      "name",
    ]);
    await vitrina.close();
  });
});
