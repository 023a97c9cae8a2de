import { createNodeHostResolver, type LookupAllPromise } from "@vitrina/http-node";
import { describe, expect, it } from "vitest";
import { recordingLogger } from "./support/recording-logger.js";
import { RECEIVER_SECRET, startWebhookHarness } from "./support/webhook-harness.js";

const good = { url: "https://erp.example.cl/hooks", events: ["order.confirmed"], secret: RECEIVER_SECRET };

/** The request's answer, or a label if it is still waiting after `ms` (the bug: it waited forever). */
function answerWithin<T>(request: Promise<T>, ms: number): Promise<T | string> {
  return Promise.race([request, new Promise<string>((r) => setTimeout(() => r(`no answer after ${ms} ms`), ms))]);
}

describe("subscription API: the SSRF guard's DNS check has a deadline", () => {
  it("answers 422 on url when the host never resolves, on create and on PATCH, and logs it without the secret", async () => {
    // A hostile or broken nameserver: the lookup neither answers nor fails.
    let hang = false;
    const { logger, entries } = recordingLogger();
    const h = await startWebhookHarness({
      logger,
      webhooks: {
        timeoutMs: 300,
        resolveHost: () => (hang ? new Promise<string[]>(() => {}) : Promise.resolve(["93.184.216.34"])),
      },
    });
    const first = await h.api("POST", "/v1/webhooks", good);
    expect(first.status).toBe(201);
    const id = first.json.id as string;
    hang = true;

    const expectedError = {
      code: "invalid_payload",
      reasons: [{ field: "url", reason: "erp.example.cl did not resolve within 300 ms; check its DNS and try again" }],
    };
    const started = Date.now();
    const created = await answerWithin(h.api("POST", "/v1/webhooks", good), 3_000);
    expect(created).toMatchObject({ status: 422, json: { error: expectedError } });
    expect(Date.now() - started).toBeLessThan(1_500);

    const patched = await answerWithin(
      h.api("PATCH", `/v1/webhooks/${id}`, { url: "https://erp.example.cl/v2", secret: RECEIVER_SECRET }),
      3_000,
    );
    expect(patched).toMatchObject({ status: 422, json: { error: expectedError } });
    expect((await h.vitrina.storage.webhookSubscriptions.get(h.workspace.id, id))?.url).toBe(good.url);

    // Each line carries the id of the request it came from (answered in X-Request-Id), as lead intake's do.
    const requestIdOf = (answer: unknown) => (answer as { headers: Headers }).headers.get("x-request-id");
    const timeouts = entries.filter((e) => e.message.includes("did not resolve"));
    expect(timeouts).toEqual([
      expect.objectContaining({
        level: "warn",
        fields: {
          requestId: requestIdOf(created),
          workspaceId: h.workspace.id,
          subscriptionId: null,
          host: "erp.example.cl",
          timeoutMs: 300,
        },
      }),
      expect.objectContaining({
        fields: {
          requestId: requestIdOf(patched),
          workspaceId: h.workspace.id,
          subscriptionId: id,
          host: "erp.example.cl",
          timeoutMs: 300,
        },
      }),
    ]);
    expect(new Set(timeouts.map((e) => e.fields.requestId)).size).toBe(2);
    // The once-per-process "no worker" warning, logged while the first subscription was created, too.
    const noWorker = entries.filter((e) => e.message.includes("no outbox worker"));
    expect(noWorker).toEqual([
      expect.objectContaining({ level: "warn", fields: { requestId: first.headers.get("x-request-id") } }),
    ]);
    expect(JSON.stringify(entries)).not.toContain(RECEIVER_SECRET);
  });

  it("drops a lookup still waiting for a free slot in nodeHostResolver once the deadline passes", async () => {
    // One slot, held by a name whose nameserver never answers (until released at the end).
    const started: string[] = [];
    let release = () => {};
    const lookup: LookupAllPromise = async (hostname) => {
      started.push(hostname);
      if (hostname === "hung.example") await new Promise<void>((resolve) => (release = resolve));
      return [{ address: "93.184.216.34", family: 4 }];
    };
    const h = await startWebhookHarness({
      webhooks: { timeoutMs: 300, resolveHost: createNodeHostResolver({ lookup, maxInFlight: 1 }) },
    });
    const hung = await h.api("POST", "/v1/webhooks", { ...good, url: "https://hung.example/hooks" });
    expect(hung).toMatchObject({ status: 422 });
    // Waits in line behind the hung lookup, and the deadline refuses it as before.
    const queued = await h.api("POST", "/v1/webhooks", good);
    expect(queued).toMatchObject({
      status: 422,
      json: {
        error: { reasons: [{ field: "url", reason: expect.stringContaining("did not resolve within 300 ms") }] },
      },
    });

    // The slot frees up: the abandoned lookup of erp.example.cl must not start then.
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toEqual(["hung.example"]);
    expect(await h.api("POST", "/v1/webhooks", good)).toMatchObject({ status: 201 });
    expect(started).toEqual(["hung.example", "erp.example.cl"]);
  });
});
