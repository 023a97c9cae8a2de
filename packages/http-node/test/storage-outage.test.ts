import { createServer } from "node:net";
import pg from "pg";
import { postgresStorage } from "@vitrina/adapter-postgres";
import { createVitrina } from "@vitrina/core";
import { logMessagingTransport } from "@vitrina/core/demo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve, type RunningServer } from "@vitrina/http-node";
import { recordingLogger } from "./support/recording-logger.js";
import { runCli } from "./support/cli-main.js";

/** A loopback port nothing listens on: connecting to it is refused at once. */
async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The database is down. Whoever calls (a CRM with made-up headers, a bearer token nobody checked
 * yet, a probe) gets a 503 `storage_unavailable` that says so and nothing more: the database's
 * address is the operator's business, and it is in their log line instead. Before, the PostgreSQL
 * adapter put the driver's message ("connect ECONNREFUSED 10.0.3.12:5432", "getaddrinfo ENOTFOUND
 * db.internal") into the error's message, and every error body repeats the message.
 */
describe("a storage outage, over HTTP", () => {
  let server: RunningServer;
  let pool: pg.Pool;
  let databaseAddress: string;
  const { logger, entries } = recordingLogger();

  beforeAll(async () => {
    const port = await closedLoopbackPort();
    databaseAddress = `127.0.0.1:${port}`;
    pool = new pg.Pool({ host: "127.0.0.1", port, user: "postgres", database: "test", connectionTimeoutMillis: 2000 });
    const vitrina = createVitrina({
      storage: postgresStorage(pool, { closeDriver: false }),
      messaging: logMessagingTransport(logger),
      secretBox: Buffer.alloc(32, 3).toString("base64"),
      logger,
      health: true,
    });
    server = await serve(vitrina.handler, { port: 0, handleSignals: false });
  });
  afterAll(async () => {
    await server?.close();
    await pool?.end();
  });

  const requests: Array<[string, string, RequestInit]> = [
    [
      "lead intake",
      "/functions/v1/lead-intake",
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-vitrina-connector-id": crypto.randomUUID(),
          "x-vitrina-timestamp": String(Date.now()),
          "x-vitrina-signature": `sha256=${"0".repeat(64)}`,
        },
        body: "{}",
      },
    ],
    ["the webhooks API", "/v1/webhooks", { headers: { authorization: "Bearer vtr_live_not-checked-yet" } }],
  ];

  it.each(requests)("%s answers 503 storage_unavailable without the database's address", async (_name, path, init) => {
    entries.length = 0;
    const response = await fetch(`${server.url}${path}`, init);
    const text = await response.text();
    expect(response.status).toBe(503);
    expect(JSON.parse(text).error).toMatchObject({ code: "storage_unavailable", reasons: [] });
    expect(text).not.toContain(databaseAddress);
    expect(text).not.toContain("ECONNREFUSED");
    // The operator's log line keeps what the driver said.
    const logged = entries.filter((entry) => entry.level === "error");
    expect(logged).toHaveLength(1);
    expect(logged[0]!.fields).toMatchObject({ code: "storage_unavailable", status: 503 });
    expect(JSON.stringify(logged[0])).toContain(databaseAddress);
  });

  it("/readyz says failing with check names only, and logs the driver's error with the address", async () => {
    entries.length = 0;
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "failing", checks: { storage: "failing", worker: "not running" } });
    const warned = entries.filter((entry) => entry.level === "warn");
    expect(warned).toEqual([expect.objectContaining({ message: "readiness check failing" })]);
    expect(String(warned[0]!.fields.cause)).toContain(`ECONNREFUSED ${databaseAddress}`);
  });
});

describe("a storage outage, at the console", () => {
  it("`vitrina migrate` says what the driver said, since the error's own message no longer does", async () => {
    const port = await closedLoopbackPort();
    const run = await runCli(["migrate"], {
      env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test`, VITRINA_SECRET_KEY: "" },
    });
    expect(run.code).toBe(1);
    const lastLines = run.stderr.trim().split("\n").slice(-2);
    expect(lastLines).toEqual([
      "vitrina: storage_unavailable: the database is unavailable",
      `  cause: connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
  }, 60_000);
});
