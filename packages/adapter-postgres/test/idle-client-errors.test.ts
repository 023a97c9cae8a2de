import pg from "pg";
import { describe, expect, it } from "vitest";
import { postgresStorage } from "@vitrina/adapter-postgres";
import { recordingLogger } from "../../http-node/test/support/recording-logger.js";

// No connection is opened here: the pools point at a port nothing listens on and are never queried.
const unused = "postgres://nobody@127.0.0.1:1/none";

describe("a pg.Pool given to postgresStorage", () => {
  it("gets an error listener when it has none, so a dropped idle connection is logged instead of ending the process", async () => {
    const pool = new pg.Pool({ connectionString: unused });
    const { logger, entries } = recordingLogger();
    postgresStorage(pool, { logger });
    expect(pool.listenerCount("error")).toBe(1);
    const dropped = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
    pool.emit("error", dropped);
    pool.emit("error", dropped);
    expect(entries).toEqual([
      {
        level: "warn",
        fields: { code: "57P01", cause: expect.stringContaining("administrator command"), droppedConnections: 1 },
        message: expect.stringMatching(/^PostgreSQL dropped an idle pooled connection/),
      },
    ]);
    await pool.end();
  });

  it("keeps the embedder's own listener as the only one", async () => {
    const pool = new pg.Pool({ connectionString: unused });
    const theirs = () => {};
    pool.on("error", theirs);
    postgresStorage(pool);
    expect(pool.listeners("error")).toEqual([theirs]);
    await pool.end();
  });
});
