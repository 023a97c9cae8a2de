import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installOtelSdk, type OtelSdk } from "../support/otel-sdk.js";
import { sampleLead, startLeadHarness, type LeadHarness } from "../support/lead-harness.js";

// Contact data no exported span, event or metric may carry.
const PHONE = "+56977770001";
const EMAIL = "otel-marker@example.cl";
const NAME = "Marcador Privadísimo";

describe("lead intake telemetry, with the OpenTelemetry SDK installed", () => {
  let sdk: OtelSdk;
  let h: LeadHarness;
  beforeAll(async () => {
    sdk = installOtelSdk();
    h = await startLeadHarness();
    const lead = sampleLead({ contact: { phone_e164: PHONE, email: EMAIL, name: NAME } });
    expect((await h.send(lead)).status).toBe(200);
    expect((await h.send(lead)).json.duplicate).toBe(true);
    expect(
      (
        await h.send(sampleLead({ contact: { phone_e164: PHONE, email: EMAIL, name: NAME } }), {
          secret: "wrong-secret",
        })
      ).status,
    ).toBe(401);
    expect(
      (await h.send(sampleLead({ contact: { phone_e164: "not a phone", email: EMAIL, name: NAME } }))).status,
    ).toBe(422);
    const unsigned = await h.post(JSON.stringify(lead), { "content-type": "text/plain" });
    expect(unsigned.status).toBe(415);
  });
  afterAll(async () => {
    await h.close();
    await sdk.uninstall();
  });

  it("runs every intake request in a vitrina.lead.intake span with its outcome and error type", async () => {
    const spans = (await sdk.spans()).filter((s) => s.name === "vitrina.lead.intake");
    expect(
      spans.map((s) => [s.attributes["vitrina.lead.outcome"], s.attributes["error.type"] ?? null, s.status.code]),
    ).toEqual([
      ["accepted", null, SpanStatusCode.UNSET],
      ["duplicate", null, SpanStatusCode.UNSET],
      ["rejected", "invalid_signature", SpanStatusCode.ERROR],
      ["rejected", "invalid_payload", SpanStatusCode.ERROR],
      ["rejected", "unsupported_media_type", SpanStatusCode.ERROR],
    ]);
    expect(spans[0]!.kind).toBe(SpanKind.INTERNAL);
    // Ids the intake learns once the signature holds; a refused signature names no connector.
    expect(spans[0]!.attributes).toMatchObject({
      "vitrina.connector.id": h.connector.id,
      "vitrina.workspace.id": h.workspace.id,
    });
    expect(spans[2]!.attributes["vitrina.connector.id"]).toBeUndefined();
    // A refusal is recorded by its code only: our messages may quote what the sender sent.
    expect(spans[3]!.events.map((e) => e.attributes)).toEqual([
      { "exception.type": "ValidationError", "exception.message": "invalid_payload" },
    ]);
  });

  it("counts leads by outcome and error type in vitrina.leads", async () => {
    const points = await sdk.points("vitrina.leads");
    expect(points.map((p) => [p.attributes, p.value])).toEqual(
      expect.arrayContaining([
        [{ "vitrina.lead.outcome": "accepted" }, 1],
        [{ "vitrina.lead.outcome": "duplicate" }, 1],
        [{ "vitrina.lead.outcome": "rejected", "error.type": "invalid_signature" }, 1],
        [{ "vitrina.lead.outcome": "rejected", "error.type": "invalid_payload" }, 1],
        [{ "vitrina.lead.outcome": "rejected", "error.type": "unsupported_media_type" }, 1],
      ]),
    );
    expect(points).toHaveLength(5);
  });

  it("exports no phone number, email or name of the lead", async () => {
    const exported = await sdk.everythingExported();
    expect(exported).toContain("vitrina.lead.intake");
    for (const marker of [PHONE, PHONE.slice(1), EMAIL, NAME, "not a phone"]) expect(exported).not.toContain(marker);
  });
});
