import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { iso } from "../src/rows.js";
import { DATABASE_URL, backends, freshPGlite } from "./support.js";

/** What `iso` answered before it rewrote UTC text itself: `Date`'s reading of it. */
const byDate = (text: string) => new Date(text).toISOString();

/** A timestamp with microseconds, as `to_json` writes it in a UTC session (trailing zeros of the fraction dropped). */
function toJsonText(ms: number, micros: number): string {
  const [seconds] = new Date(ms).toISOString().split(".");
  const fraction = String((((ms % 1000) + 1000) % 1000) * 1000 + micros)
    .padStart(6, "0")
    .replace(/0+$/, "");
  return `${seconds}${fraction === "" ? "" : `.${fraction}`}+00:00`;
}

describe("timestamps read back from PostgreSQL", () => {
  it("rewrites to_json's UTC text into exactly the string Date gives", () => {
    fc.assert(
      fc.property(
        // Years 0000–9999: the ones `toISOString` writes with four digits, as PostgreSQL does.
        fc.integer({ min: Date.parse("0000-01-01T00:00:00Z"), max: Date.parse("9999-12-31T23:59:59.999Z") }),
        fc.integer({ min: 0, max: 999 }),
        (ms, micros) => {
          const text = toJsonText(ms, micros);
          expect(iso(text)).toBe(byDate(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("leaves any other text to Date: another offset, no offset's colon, a space for the T", () => {
    for (const text of [
      "2026-11-28T09:26:47.123456+01:00",
      "2026-11-28T09:26:47.123456-03:30",
      "2026-11-28T09:26:47.5Z",
      "2026-11-28 09:26:47.123+00",
      "2026-11-28T09:26:47.1234567+00:00",
    ])
      expect(iso(text), text).toBe(byDate(text));
    const now = new Date();
    expect(iso(now)).toBe(now.toISOString());
  });

  describe.each(backends)("on %s", (backend) => {
    let query: (sql: string) => Promise<{ rows: Array<{ value: string }> }>;
    let close: () => Promise<void>;
    beforeAll(async () => {
      if (backend === "PGlite") {
        const db: PGlite = await freshPGlite();
        query = (sql) => db.query(sql) as never;
        close = () => db.close();
      } else {
        const client = new pg.Client({ connectionString: DATABASE_URL });
        await client.connect();
        query = (sql) => client.query(sql);
        close = () => client.end();
      }
    });
    afterAll(() => close?.());

    it("reads to_json's timestamps as Date would, in a UTC session and in another", async () => {
      const modern = ["2026-11-28 09:26:47.123456+00", "2026-01-01 00:00:00+00", "2024-02-29 23:59:59.9+00"];
      // In a zone other than UTC, years this far out get local mean time offsets (-04:42:46) that Date can't read at all.
      const edges = ["0001-01-01 00:00:00.000001+00", "9999-12-31 23:59:59.999999+00"];
      for (const [zone, stamps] of [
        ["UTC", [...modern, ...edges]],
        ["America/Santiago", modern],
      ] as const) {
        await query(`SET TimeZone = '${zone}'`);
        const list = stamps.map((t) => `('${t}'::timestamptz)`).join(", ");
        const { rows } = await query(`SELECT to_json(v.t) #>> '{}' AS value FROM (VALUES ${list}) AS v(t)`);
        expect(rows).toHaveLength(stamps.length);
        for (const { value } of rows) expect(iso(value), `${zone}: ${value}`).toBe(byDate(value));
      }
      await query(`SET TimeZone = 'UTC'`);
    });
  });
});
