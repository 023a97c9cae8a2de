// Signed leads/s and latency through @vitrina/http-node + memory adapter, next to a bare node:http
// server that only reads the body, verifies the HMAC and answers 200 (the ceiling).
import { driveLeads, startServerProcess } from "./lead-load.mjs";

export const name = "lead intake: http-node + memory / PostgreSQL adapters vs bare node:http ceiling (32 connections, distinct leads)";

const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function measure(kind, total = 4000) {
  const server = await startServerProcess("lead-server.mjs", [kind], { DATABASE_URL });
  try {
    await driveLeads(server.info, { total: 500 }); // warm-up
    return await driveLeads(server.info, { total });
  } finally {
    server.stop();
  }
}

async function postgresAnswers() {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function run() {
  const bare = await measure("bare");
  const vitrina = await measure("vitrina-memory");
  const postgres = (await postgresAnswers()) ? await measure("vitrina-postgres", 3000) : null;
  const row = (label, r) => [
    { case: `${label} leads/s`, value: r.perSecond, unit: "req/s" },
    { case: `${label} p50 / p99`, value: `${r.p50.toFixed(2)} / ${r.p99.toFixed(2)}`, unit: "ms" },
  ];
  return [
    ...row("bare node:http (ceiling)", bare),
    ...row("vitrina http-node + memory", vitrina),
    { case: "vitrina / ceiling", value: `${((vitrina.perSecond / bare.perSecond) * 100).toFixed(1)}%`, note: "target >= 50%" },
    ...(postgres
      ? [
          ...row("vitrina http-node + PostgreSQL", postgres),
          { case: "PostgreSQL / memory", value: `${((postgres.perSecond / vitrina.perSecond) * 100).toFixed(1)}%` },
        ]
      : [{ case: "vitrina http-node + PostgreSQL", value: "skipped", note: `no server at ${DATABASE_URL}` }]),
  ];
}
