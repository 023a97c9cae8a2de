import fc from "fast-check";
import { memoryStorage } from "@vitrina/adapter-memory";
import { signLead } from "@vitrina/client";
import { createVitrina, type LogFields, type Logger, type Storage, type VitrinaOptions } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { createManualClock } from "@vitrina/core/testing";
import { describe, expect, it } from "vitest";
import { hostileJsonValue, hostileString } from "./support/hostile-strings.js";

const T0 = "2026-03-01T12:00:00.000Z";

async function setup(
  refusals: NonNullable<VitrinaOptions["leadIntake"]>["refusals"] = {},
  storage: Storage = memoryStorage(),
) {
  const clock = createManualClock(T0);
  const logs: Array<{ level: string; fields: LogFields; message: string }> = [];
  const at = (level: string) =>
    ((fields: LogFields, message: string) => void logs.push({ level, fields, message })) as Logger["info"];
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  const vitrina = createVitrina({
    storage,
    messaging: logMessagingTransport(logger),
    secretBox: Buffer.alloc(32, 3).toString("base64"),
    clock,
    logger,
    leadIntake: { refusals },
  });
  const workspace = await vitrina.workspaces.create({ name: "Andes", ownerUserId: "owner" });
  const { connector, secret } = await vitrina.connectors.create(
    { userId: "owner" },
    { workspaceId: workspace.id, name: "CRM", systemId: "crm" },
  );
  const key = (await vitrina.apiKeys.issue({ userId: "owner" }, workspace.id, { name: "read", scopes: ["admin:read"] }))
    .secret;
  /** Posts `body` signed as `sign` says (the connector's secret by default), with a request id. */
  const post = async (
    body: string,
    sign: { connectorId?: string; secret?: string; timestamp?: number; drop?: string; requestId?: string } = {},
  ) => {
    const { headers } = signLead({
      connectorId: sign.connectorId ?? connector.id,
      secret: sign.secret ?? secret,
      body,
      timestamp: sign.timestamp ?? clock.now().getTime(),
    });
    const sent: Record<string, string> = { ...headers, "x-request-id": sign.requestId ?? "req-1" };
    for (const name of Object.keys(sent)) if (name.toLowerCase() === sign.drop) delete sent[name];
    const response = await vitrina.handler(
      new Request("http://vitrina.test/functions/v1/lead-intake", { method: "POST", headers: sent, body }),
    );
    return response.status;
  };
  const refusalsOf = async (connectorId = connector.id, withKey = key) => {
    const response = await vitrina.handler(
      new Request(`http://vitrina.test/v1/connectors/${connectorId}/refusals`, {
        headers: { authorization: `Bearer ${withKey}` },
      }),
    );
    return { status: response.status, json: (await response.json()) as any };
  };
  return { vitrina, storage, clock, logs, connector, secret, key, post, refusalsOf, workspace };
}

const lead = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: "lead.created",
    source_lead_id: `crm-${crypto.randomUUID()}`,
    contact: { phone_e164: "+56912345678", name: "María Pérez", email: "maria@example.cl" },
    whatsapp_consent: { granted: true, timestamp: "2026-02-01T12:00:00Z" },
    ...over,
  });

describe("refused leads, recorded per connector", () => {
  it("records the code, the fields at fault, the timestamp skew and the request id; never the body, a signature or a person's data", async () => {
    const s = await setup();
    expect(await s.post(lead(), { secret: "not-the-secret", requestId: "req-sig" })).toBe(401);
    s.clock.advance(1000);
    expect(await s.post(lead(), { timestamp: s.clock.now().getTime() - 10 * 60_000, requestId: "req-old" })).toBe(401);
    s.clock.advance(1000);
    expect(await s.post(lead({ contact: { phone_e164: "912345678", name: "María" } }), { requestId: "req-bad" })).toBe(
      422,
    );
    s.clock.advance(1000);
    expect(await s.post(lead(), { drop: "x-vitrina-signature", requestId: "req-missing" })).toBe(401);
    const { status, json } = await s.refusalsOf();
    expect(status).toBe(200);
    expect(json.data).toEqual([
      expect.objectContaining({
        object: "lead_refusal",
        connector_id: s.connector.id,
        code: "missing_signature_headers",
        fields: ["X-Vitrina-Signature"],
        timestamp_skew_ms: 0,
        request_id: "req-missing",
        unrecorded_before: 0,
      }),
      expect.objectContaining({ code: "invalid_payload", fields: ["contact.phone_e164"], request_id: "req-bad" }),
      expect.objectContaining({
        code: "timestamp_expired",
        fields: ["X-Vitrina-Timestamp"],
        timestamp_skew_ms: 10 * 60_000,
        request_id: "req-old",
        at: "2026-03-01T12:00:01.000Z",
      }),
      expect.objectContaining({ code: "invalid_signature", fields: ["X-Vitrina-Signature"], request_id: "req-sig" }),
    ]);
    const stored = JSON.stringify(json);
    for (const secretOrPersonal of ["912345678", "María", "maria@example.cl", s.secret, "not-the-secret"])
      expect(stored).not.toContain(secretOrPersonal);
    // The log line of each refusal says whether it was recorded.
    expect(s.logs.filter((l) => l.message === "lead rejected").map((l) => l.fields.refusal)).toEqual([
      "recorded",
      "recorded",
      "recorded",
      "recorded",
    ]);
  });

  it("records nothing for an unknown or malformed connector id", async () => {
    const s = await setup();
    const unknown = crypto.randomUUID();
    let writes = 0;
    const record = s.storage.leadRefusals.record;
    s.storage.leadRefusals.record = async (...args) => {
      writes++;
      return record(...args);
    };
    expect(await s.post(lead(), { connectorId: unknown })).toBe(401);
    expect(await s.post(lead(), { connectorId: "not-a-uuid" })).toBe(401);
    expect(await s.storage.leadRefusals.listByConnector(unknown, 100)).toEqual([]);
    // The malformed id never reaches the storage; the unknown one costs one write attempt that stores nothing.
    expect(writes).toBe(1);
    expect(s.logs.filter((l) => l.message === "lead rejected").map((l) => l.fields.refusal)).toEqual([
      "skipped",
      "skipped",
    ]);
    expect((await s.refusalsOf(unknown)).status).toBe(404);
  });

  it("keeps only the newest keepPerConnector refusals", async () => {
    const s = await setup({ keepPerConnector: 3 });
    for (let i = 1; i <= 5; i++) {
      s.clock.advance(1000);
      await s.post(lead(), { secret: "wrong", requestId: `req-${i}` });
    }
    expect((await s.refusalsOf()).json.data.map((r: any) => r.request_id)).toEqual(["req-5", "req-4", "req-3"]);
  });

  it("writes at most perConnectorPerMinute refusals, counts the rest without a storage call, and says how many on the next row", async () => {
    const s = await setup({ perConnectorPerMinute: 2 });
    let writes = 0;
    const record = s.storage.leadRefusals.record;
    s.storage.leadRefusals.record = async (...args) => {
      writes++;
      return record(...args);
    };
    for (let i = 1; i <= 6; i++) expect(await s.post(lead(), { secret: "wrong", requestId: `req-${i}` })).toBe(401);
    expect(writes).toBe(2);
    expect(s.logs.filter((l) => l.message === "lead rejected").map((l) => l.fields.refusal)).toEqual([
      "recorded",
      "recorded",
      "over_rate",
      "over_rate",
      "over_rate",
      "over_rate",
    ]);
    // Half a minute refills one of the two per minute.
    s.clock.advance(30_000);
    await s.post(lead(), { secret: "wrong", requestId: "req-7" });
    const rows = (await s.refusalsOf()).json.data;
    expect(rows.map((r: any) => [r.request_id, r.unrecorded_before])).toEqual([
      ["req-7", 4],
      ["req-2", 0],
      ["req-1", 0],
    ]);
  });

  it("caps the writes across connectors with totalPerMinute", async () => {
    const s = await setup({ totalPerMinute: 1 });
    const other = await s.vitrina.connectors.create(
      { userId: "owner" },
      { workspaceId: s.workspace.id, name: "Form", systemId: "form" },
    );
    await s.post(lead(), { secret: "wrong" });
    await s.post(lead(), { connectorId: other.connector.id, secret: "wrong" });
    expect((await s.refusalsOf()).json.data).toHaveLength(1);
    expect((await s.refusalsOf(other.connector.id)).json.data).toHaveLength(0);
  });

  it("answers the sender the same when recording fails, and logs the failure without the request's data", async () => {
    const s = await setup();
    s.storage.leadRefusals.record = async () => {
      throw new Error("database is down");
    };
    expect(await s.post(lead(), { secret: "wrong" })).toBe(401);
    const failure = s.logs.find((l) => l.message === "a lead refusal could not be recorded");
    expect(failure?.fields).toMatchObject({ connectorId: s.connector.id, code: "invalid_signature" });
    expect(JSON.stringify(failure)).not.toContain("912345678");
  });

  it("purges refusals older than retentionDays in the retention run", async () => {
    const s = await setup({ retentionDays: 1 });
    await s.post(lead(), { secret: "wrong", requestId: "old" });
    s.clock.advance(20 * 3600_000);
    await s.post(lead(), { secret: "wrong", requestId: "new" });
    s.clock.advance(5 * 3600_000);
    const report = await s.vitrina.maintenance.runRetention();
    expect(report.extra.lead_refusals).toBe(1);
    expect((await s.refusalsOf()).json.data.map((r: any) => r.request_id)).toEqual(["new"]);
  });

  it("refuses nonsense settings at start-up naming the option", async () => {
    for (const [field, value] of [
      ["keepPerConnector", 0],
      ["keepPerConnector", 1001],
      ["retentionDays", 0.5],
      ["perConnectorPerMinute", -1],
      ["totalPerMinute", Number.NaN],
    ] as const) {
      await expect(setup({ [field]: value })).rejects.toMatchObject({
        code: "invalid_argument",
        reasons: [{ field: `leadIntake.refusals.${field}` }],
      });
    }
  });

  it("shows a connector's refusals only to its own workspace", async () => {
    const s = await setup();
    await s.post(lead(), { secret: "wrong" });
    const other = await setup({}, s.storage);
    expect((await other.refusalsOf(s.connector.id)).status).toBe(404);
    expect((await s.refusalsOf(s.connector.id, "vk_not_a_key")).status).toBe(401);
  });

  it("records storable field paths, never values, for any signed payload (U+0000 and lone surrogates included)", async () => {
    const s = await setup({ perConnectorPerMinute: 100_000, totalPerMinute: 1_000_000, keepPerConnector: 1 });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hostileJsonValue(),
          fc.record({
            event: fc.oneof(fc.constant("lead.created"), hostileString({ maxLength: 8 })),
            source_lead_id: hostileString({ maxLength: 12 }),
            contact: fc.record({ phone_e164: hostileString({ maxLength: 16 }) }),
            qualification: fc.dictionary(hostileString({ maxLength: 12 }), hostileJsonValue(), { maxKeys: 3 }),
          }),
        ),
        async (payload) => {
          s.logs.length = 0;
          const status = await s.post(JSON.stringify(payload));
          expect(status).toBeLessThan(500);
          expect(s.logs.find((l) => l.message === "a lead refusal could not be recorded")).toBeUndefined();
          if (status === 200) return;
          const [row] = (await s.refusalsOf()).json.data;
          for (const field of row.fields as string[]) {
            expect(field.length).toBeLessThanOrEqual(201);
            expect(field).not.toMatch(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
          }
          const phone = (payload as any)?.contact?.phone_e164;
          if (typeof phone === "string" && phone.length >= 4)
            expect(JSON.stringify(row)).not.toContain(JSON.stringify(phone).slice(1, -1));
        },
      ),
      { numRuns: 150 },
    );
  });
});
