import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Storage } from "@vitrina/core";
import { fixtures } from "@vitrina/core/testing";
import { backends, openTestStorage } from "./support.js";

// The refusal ring's write is a read-modify-write of the connector's counter: every process that
// refuses a lead of the same connector at once must get its own sequence number (none lost to a
// concurrent writer) and the connector must never hold more than `keep` rows. On PostgreSQL the
// writers really run at once; PGlite runs them one at a time, so there it checks the bookkeeping.
const RUNS = { PGlite: 5, PostgreSQL: 100 } as const;
const WRITERS = 8;
const KEEP = 3;

describe.each(backends)("lead refusal ring under concurrent writers on %s", (backend) => {
  let storage: Storage;
  let db: { query(text: string, params?: unknown[]): Promise<{ rows: any[] }> };
  let schema: string;
  const f = fixtures();
  beforeAll(async () => {
    ({ storage, db, schema } = await openTestStorage(backend));
  });
  afterAll(async () => {
    await storage.close();
  });

  it(`gives every concurrent refusal its own sequence and keeps at most ${KEEP} rows (${RUNS[backend]} runs of ${WRITERS} writers)`, async () => {
    const workspace = f.workspace();
    await storage.workspaces.insert(workspace);
    const connector = f.connector(workspace.id);
    await storage.connectors.insert(connector);
    let lostOrDuplicated = 0;
    let overfull = 0;
    for (let run = 1; run <= RUNS[backend]; run++) {
      const written = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) =>
          storage.leadRefusals.record(
            {
              id: f.id(),
              connectorId: connector.id,
              at: f.at(run * 1000 + i),
              code: "invalid_signature",
              fields: ["X-Vitrina-Signature"],
              skewMs: 0,
              requestId: `run-${run}-${i}`,
              unrecordedBefore: 0,
            },
            KEEP,
          ),
        ),
      );
      expect(written.every(Boolean)).toBe(true);
      const { rows } = await db.query(
        `SELECT seq::int AS seq FROM "${schema}".lead_refusals WHERE connector_id = $1 ORDER BY seq DESC`,
        [connector.id],
      );
      const total = run * WRITERS;
      // The newest KEEP sequence numbers, exactly: none lost, none handed out twice.
      const expected = Array.from({ length: KEEP }, (_, i) => total - i);
      if (JSON.stringify(rows.map((r) => r.seq)) !== JSON.stringify(expected)) lostOrDuplicated++;
      if (rows.length > KEEP) overfull++;
    }
    expect({ lostOrDuplicated, overfull }).toEqual({ lostOrDuplicated: 0, overfull: 0 });
    expect(await storage.leadRefusals.listByConnector(connector.id, 10)).toHaveLength(KEEP);
  });
});
