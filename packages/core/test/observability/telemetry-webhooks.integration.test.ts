import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { memoryStorage } from "@vitrina/adapter-memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installOtelSdk, type OtelSdk } from "../support/otel-sdk.js";
import { startReceiver, startWebhookHarness } from "../support/webhook-harness.js";

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe("webhook delivery telemetry, with the OpenTelemetry SDK installed", () => {
  let sdk: OtelSdk;
  let h: Awaited<ReturnType<typeof startWebhookHarness>>;
  let ok: Awaited<ReturnType<typeof startReceiver>>;
  let down: Awaited<ReturnType<typeof startReceiver>>;
  const storage = memoryStorage();
  let statsQueries = 0;
  const outboxStats = storage.webhookDeliveries.outboxStats.bind(storage.webhookDeliveries);
  storage.webhookDeliveries.outboxStats = (now) => {
    statsQueries++;
    return outboxStats(now);
  };

  beforeAll(async () => {
    sdk = installOtelSdk();
    ok = await startReceiver();
    down = await startReceiver((_d, res) => {
      res.statusCode = 503;
      res.end();
    });
    h = await startWebhookHarness({ storage });
    await h.subscribe(ok.url, ["quote.created"]);
    await h.quote();
    await h.vitrina.outbox.dispatcher.runOnce("w1");
    await h.subscribe(down.url, ["quote.accepted"]);
  });
  afterAll(async () => {
    await ok.close();
    await down.close();
    await storage.close();
    await sdk.uninstall();
  });

  it("sends a traceparent whose trace and span are those of the exported CLIENT span of the attempt", async () => {
    expect(ok.received).toHaveLength(1);
    const [, traceId, parentId] = TRACEPARENT.exec(String(ok.received[0]!.headers.traceparent)) ?? [];
    const post = (await sdk.spans()).find((s) => s.name === "POST");
    expect(post?.kind).toBe(SpanKind.CLIENT);
    expect(post?.spanContext()).toMatchObject({ traceId, spanId: parentId });
    expect(post?.attributes).toMatchObject({
      "http.request.method": "POST",
      "server.address": "127.0.0.1",
      "server.port": Number(new URL(ok.url).port),
      "http.response.status_code": 200,
      "vitrina.event.type": "quote.created",
    });
    // The URL (its path or query may hold the receiver's token) is never recorded.
    expect(JSON.stringify(post?.attributes)).not.toContain("/hooks");
  });

  it("counts deliveries by outcome and measures each POST in seconds", async () => {
    const quote = await h.quote();
    await h.vitrina.quotes.accept({ workspaceId: h.workspace.id, quoteId: quote.id });
    await h.vitrina.outbox.dispatcher.runOnce("w1");
    expect(down.received).toHaveLength(1);
    const failed = (await sdk.spans()).filter(
      (s) => s.name === "POST" && s.attributes["http.response.status_code"] === 503,
    );
    expect(failed.map((s) => [s.status.code, s.attributes["error.type"]])).toEqual([[SpanStatusCode.ERROR, "503"]]);

    expect((await sdk.points("vitrina.webhook.deliveries")).map((p) => [p.attributes, p.value])).toEqual(
      expect.arrayContaining([
        [{ "vitrina.webhook.outcome": "succeeded" }, 2],
        [{ "vitrina.webhook.outcome": "retry_scheduled", "error.type": "503" }, 1],
      ]),
    );
    const durations = await sdk.points("vitrina.webhook.delivery.duration");
    const histogram = (status: number) =>
      durations.find((p) => p.attributes["http.response.status_code"] === status)?.value as {
        count: number;
        sum: number;
      };
    expect(histogram(200).count).toBe(2);
    expect(histogram(503).count).toBe(1);
    // Seconds, not milliseconds: a loopback POST takes far less than the 5 s deadline.
    expect(histogram(503).sum).toBeLessThan(5);
  });

  it("reports outbox depth and the overdue age while a worker runs, one series however many workers", async () => {
    // The failed delivery is due again after its backoff; another process claimed it and hangs.
    h.clock.advance(3_600_000);
    const now = h.clock.now();
    const [stuck] = await storage.webhookDeliveries.claimDueDeliveries(
      now.toISOString(),
      10,
      new Date(now.getTime() + 86_400_000).toISOString(),
      "hung",
    );
    expect(stuck).toBeDefined();
    expect(await sdk.points("vitrina.outbox.depth")).toEqual([]);

    const first = h.vitrina.outbox.startWorker({ sweepIntervalMs: 3_600_000 });
    const second = h.vitrina.outbox.startWorker({ sweepIntervalMs: 3_600_000 });
    expect((await sdk.points("vitrina.outbox.depth")).map((p) => p.value)).toEqual([1]);
    const overdue = (now.getTime() - Date.parse(stuck!.delivery.nextAttemptAt)) / 1000;
    expect(overdue).toBeGreaterThan(0);
    expect((await sdk.points("vitrina.outbox.oldest_pending_age")).map((p) => p.value)).toEqual([overdue]);
    // One query per collection for both gauges, however many workers this outbox runs.
    const before = statsQueries;
    await sdk.metrics();
    expect(statsQueries - before).toBe(1);

    await first.stop();
    await second.stop();
    const queried = statsQueries;
    await sdk.metrics();
    expect(statsQueries).toBe(queried);
  });
});
