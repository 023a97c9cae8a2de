import { signLead } from "@vitrina/client";
import { createVitrina, silentLogger } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { describe, expect, it } from "vitest";
import { capturePino, leadWithMarkers, observedVitrina, OTHER_SECRET_BOX_KEY, PII_MARKER } from "./support.js";

describe("lead intake logs", () => {
  it("logs every rejection with its code, connector and request id, never the body or a secret", async () => {
    const h = await observedVitrina();
    const wrongSecret = "vtr_cs_this-secret-must-never-be-logged-000000000";
    const body = JSON.stringify(leadWithMarkers());
    const refused = await h.postLead(body, { secret: wrongSecret, headers: { "x-request-id": "crm-req-42" } });
    expect(refused.status).toBe(401);
    const invalid = await h.postLead(
      JSON.stringify(leadWithMarkers({ contact: { phone_e164: `not-a-phone-${PII_MARKER}` } })),
    );
    expect(invalid.status).toBe(422);
    const invalidId = (await invalid.json()).error.request_id as string;
    // A secret pasted into the connector header by mistake is not echoed either.
    expect((await h.postLead(body, { connectorId: wrongSecret })).status).toBe(401);

    const rejections = h.lines.filter((line) => line.msg === "lead rejected");
    expect(rejections).toEqual([
      expect.objectContaining({
        level: 40,
        code: "invalid_signature",
        status: 401,
        connectorId: h.connector.id,
        requestId: "crm-req-42",
      }),
      expect.objectContaining({
        level: 40,
        code: "invalid_payload",
        status: 422,
        connectorId: h.connector.id,
        requestId: invalidId,
        fields: ["contact.phone_e164"],
      }),
      expect.objectContaining({
        level: 40,
        code: "unknown_connector",
        connectorId: "(malformed)",
        requestId: expect.any(String),
      }),
    ]);
    for (const leak of [PII_MARKER, wrongSecret, h.secret, "+56912345678"]) expect(h.text()).not.toContain(leak);
  });

  it("logs an accepted lead at info with its ids, without the contact's data", async () => {
    const h = await observedVitrina();
    const response = await h.postLead(JSON.stringify(leadWithMarkers()));
    expect(response.status).toBe(200);
    const { lead_event_id } = await response.json();
    expect(h.lines).toContainEqual(
      expect.objectContaining({
        level: 30,
        msg: "lead accepted",
        connectorId: h.connector.id,
        leadEventId: lead_event_id,
        duplicate: false,
        requestId: response.headers.get("x-request-id"),
      }),
    );
    for (const leak of [PII_MARKER, h.secret, "+56912345678"]) expect(h.text()).not.toContain(leak);
  });

  it("a connector whose sealed secret can't be opened answers 500 and logs an error naming the connector", async () => {
    const h = await observedVitrina();
    // The same storage read by a process whose secret box key differs (a botched key rotation).
    const other = capturePino();
    const misconfigured = createVitrina({
      storage: h.vitrina.storage,
      messaging: logMessagingTransport(silentLogger),
      secretBox: OTHER_SECRET_BOX_KEY,
      clock: h.clock,
      logger: other.logger,
    });
    const body = JSON.stringify(leadWithMarkers());
    const headers = signLead({
      connectorId: h.connector.id,
      secret: h.secret,
      body,
      timestamp: h.clock.now().getTime(),
    }).headers;
    const response = await misconfigured.handler(
      new Request("http://vitrina.test/functions/v1/lead-intake", { method: "POST", headers, body }),
    );
    expect(response.status).toBe(500);
    const json = await response.json();
    // The caller, who may not even hold the connector's secret, learns nothing about the server's keys.
    expect(json.error).toEqual({
      code: "internal",
      message: "internal error",
      reasons: [],
      request_id: response.headers.get("x-request-id"),
    });
    const errors = other.lines.filter((line) => line.level === 50);
    expect(errors).toEqual([
      expect.objectContaining({
        code: "internal",
        status: 500,
        requestId: json.error.request_id,
        msg: expect.stringContaining(h.connector.id),
        cause: expect.any(String),
      }),
    ]);
    expect(other.lines).toContainEqual(
      expect.objectContaining({ msg: "lead rejected", code: "internal", connectorId: h.connector.id }),
    );
    for (const leak of [PII_MARKER, h.secret]) expect(other.text()).not.toContain(leak);
    // The same lead through the right key goes through: the lead was never the problem.
    expect((await h.postLead(body)).status).toBe(200);
  });
});
